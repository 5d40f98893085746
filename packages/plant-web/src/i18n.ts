/**
 * The two languages of the site. The server writes the chosen one into `<html lang>` (a `lang`
 * cookie set by the switch, else Accept-Language); the switch sets the cookie for a year.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export type Lang = 'de' | 'en';
export const LANG_COOKIE = 'lang';

export function initialLang(): Lang {
  return document.documentElement.lang === 'de' ? 'de' : 'en';
}

export function rememberLang(lang: Lang): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser yet
  document.cookie = `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
  document.documentElement.lang = lang;
}

const strings = {
  siteName: ['Pflanzen', 'Plants'],
  skip: ['Zum Inhalt springen', 'Skip to content'],
  mainNav: ['Hauptnavigation', 'Main navigation'],
  home: ['Start', 'Home'],
  browse: ['Arten durchsuchen', 'Browse species'],
  sow: ['Was jetzt säen', 'What to sow'],
  check: ['Pflanzenliste prüfen', 'Check my plant list'],
  apiDocs: ['API-Dokumentation', 'API documentation'],
  signIn: ['Anmelden', 'Sign in'],
  signOut: ['Abmelden', 'Sign out'],
  signedInAs: ['Angemeldet als', 'Signed in as'],
  language: ['Sprache', 'Language'],
  otherLanguage: ['English', 'Deutsch'],
  searchLabel: ['Pflanzen suchen', 'Search plants'],
  searchPlaceholder: ['Name, z. B. Möhre', 'Name, e.g. carrot'],
  searchButton: ['Suchen', 'Search'],
  noResults: ['Nichts gefunden.', 'Nothing found.'],
  results: ['Ergebnisse', 'Results'],
  loading: ['Lädt …', 'Loading …'],
  notFound: ['Nicht gefunden', 'Not found'],
  notFoundText: ['Diese Seite gibt es nicht.', 'There is no such page.'],
  unknown: ['unbekannt', 'unknown'],
  yes: ['ja', 'yes'],
  no: ['nein', 'no'],
  any: ['alle', 'any'],
  species: ['Art', 'Species'],
  speciesPlural: ['Arten', 'Species'],
  family: ['Familie', 'Family'],
  families: ['Familien', 'Families'],
  cultivar: ['Sorte', 'Cultivar'],
  cultivars: ['Sorten', 'Cultivars'],
  images: ['Bilder', 'Images'],
  filters: ['Filter', 'Filters'],
  found: ['gefunden', 'found'],
  previous: ['Zurück', 'Previous'],
  next: ['Weiter', 'Next'],
  pageOf: ['Seite', 'Page'],
  companions: ['Nachbarn im Beet', 'Companions'],
  goodNeighbours: ['Gute Nachbarn', 'Good neighbours'],
  badNeighbours: ['Schlechte Nachbarn', 'Bad neighbours'],
  none: ['keine bekannt', 'none known'],
  mechanism: ['Wirkung', 'Mechanism'],
  evidence: ['Beleg', 'Evidence'],
  source: ['Quelle', 'Source'],
  whereToBuy: ['Bezugsquellen', 'Where to buy'],
  yearBar: ['Jahreskalender', 'Year calendar'],
  guildFor: ['Pflanzengilde für', 'Guild for'],
  guildLink: ['Gilde planen', 'Plan a guild'],
  avoid: ['Nicht daneben pflanzen', 'Keep apart'],
  byLayer: ['Nach Schicht', 'By layer'],
  byFunction: ['Nach Funktion', 'By function'],
  score: ['Punkte', 'Score'],
  zone: ['Winterhärtezone (USDA)', 'Hardiness zone (USDA)'],
  month: ['Monat', 'Month'],
  plantList: ['Pflanzen, eine pro Zeile (Name oder Kürzel)', 'Plants, one per line (name or slug)'],
  checkButton: ['Prüfen', 'Check'],
  conflicts: ['Konflikte', 'Conflicts'],
  synergies: ['Synergien', 'Synergies'],
  missingLayers: ['Fehlende Schichten', 'Missing layers'],
  missingRoles: ['Fehlende Funktionen', 'Missing functions'],
  outsideZone: ['Nicht winterhart in der Zone', 'Not hardy in the zone'],
  edit: ['Bearbeiten', 'Edit'],
  save: ['Speichern', 'Save'],
  saved: ['Gespeichert.', 'Saved.'],
  cancel: ['Abbrechen', 'Cancel'],
  delete: ['Löschen', 'Delete'],
  confirmDelete: [
    'Wirklich löschen? Das lässt sich nicht rückgängig machen.',
    'Really delete? This cannot be undone.',
  ],
  deleted: ['Gelöscht.', 'Deleted.'],
  add: ['Hinzufügen', 'Add'],
  uploadImage: ['Bild hochladen', 'Upload an image'],
  file: ['Datei (JPEG, PNG, WebP)', 'File (JPEG, PNG, WebP)'],
  caption: ['Bildunterschrift', 'Caption'],
  license: ['Lizenz', 'Licence'],
  sourceUrl: ['Quelle (URL)', 'Source (URL)'],
  preview: ['Vorschau', 'Preview'],
  upload: ['Hochladen', 'Upload'],
  uploaded: ['Hochgeladen.', 'Uploaded.'],
  addCompanion: ['Nachbarn eintragen', 'Add a companion'],
  otherSpecies: ['Andere Art (Kürzel)', 'Other species (slug)'],
  relationship: ['Beziehung', 'Relationship'],
  suppliers: ['Anbieter', 'Suppliers'],
  linkSupplier: ['Anbieter verknüpfen', 'Link a supplier'],
  supplier: ['Anbieter', 'Supplier'],
  productUrl: ['Produktseite', 'Product page'],
  price: ['Preis (EUR)', 'Price (EUR)'],
  editSupplier: ['Anbieter bearbeiten', 'Edit supplier'],
  newFamily: ['Neue Familie', 'New family'],
  newSpecies: ['Neue Art', 'New species'],
  newCultivar: ['Neue Sorte', 'New cultivar'],
  create: ['Anlegen', 'Create'],
  newSupplier: ['Neuer Anbieter', 'New supplier'],
  newRecord: ['Neu anlegen', 'Add a record'],
  newRecordIntro: [
    'Was möchten Sie anlegen? Danach geht es auf der Seite des neuen Eintrags weiter.',
    'What would you like to add? You will land on the new record’s page.',
  ],
  newSpeciesHere: ['Neue Art in dieser Familie', 'New species in this family'],
  newCultivarHere: ['Neue Sorte dieser Art', 'New cultivar of this species'],
  editorsOnly: [
    'Nur angemeldete Bearbeiterinnen und Bearbeiter können Einträge anlegen.',
    'Only signed-in editors can add records.',
  ],
  choose: ['bitte wählen', 'please choose'],
  shop: ['Zum Angebot', 'Shop page'],
  intro: [
    'Arten, Familien und Sorten für Permakultur und Garten: Standort, Nutzen, Ökologie, gute und schlechte Nachbarn, Aussaat und Ernte.',
    'Species, families and cultivars for permaculture and gardens: site, uses, ecology, good and bad neighbours, sowing and harvest.',
  ],
  sowNow: ['Jetzt säen, pflanzen und ernten', 'Sow, plant and harvest now'],
  hasMore: ['Weitere auf der nächsten Seite.', 'More on the next page.'],
  openApi: ['Die Daten gibt es auch als JSON-API.', 'The data is also a JSON API.'],
  error: ['Fehler', 'Error'],
  changeReason: ['Grund der Änderung (optional)', 'Reason for the change (optional)'],
  history: ['Änderungsverlauf', 'History'],
  showHistory: ['Verlauf zeigen', 'Show history'],
  hideHistory: ['Verlauf ausblenden', 'Hide history'],
  noHistory: ['Keine Änderungen aufgezeichnet.', 'No changes recorded.'],
  field: ['Feld', 'Field'],
  before: ['Vorher', 'Before'],
  after: ['Nachher', 'After'],
  who: ['Wer', 'Who'],
  when: ['Wann', 'When'],
  reason: ['Grund', 'Reason'],
  opCreate: ['Angelegt', 'Created'],
  opUpdate: ['Geändert', 'Changed'],
  opDelete: ['Gelöscht', 'Deleted'],
  revert: ['Rückgängig machen', 'Revert'],
  reverted: ['Rückgängig gemacht.', 'Reverted.'],
  revertsChange: ['macht Änderung rückgängig:', 'reverts change'],
  overwrite: [
    'Trotzdem rückgängig machen (spätere Änderungen überschreiben)',
    'Revert anyway (overwrite later changes)',
  ],
  actorImport: ['Import', 'Import'],
  actorDatabase: ['Datenbank (direkt)', 'Database (directly)'],
  actorToken: ['per API-Token', 'via API token'],
  someone: ['jemand', 'someone'],
  all: ['Alle', 'All'],
} satisfies Record<string, [string, string]>;

export type StringKey = keyof typeof strings;

export interface LangState {
  lang: Lang;
  setLang(lang: Lang): void;
}
export const LangContext = createContext<LangState>({ lang: 'en', setLang: () => {} });

/** `t(key)` in the current language, and the language itself. */
export function useT() {
  const { lang, setLang } = useContext(LangContext);
  const index = lang === 'de' ? 0 : 1;
  return { lang, setLang, t: (key: StringKey) => strings[key][index] };
}

export const MONTHS: Record<Lang, string[]> = {
  de: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
};

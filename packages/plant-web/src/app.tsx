import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, type User } from './api.js';
import { SearchBox } from './components/search-box.js';
import { initialLang, type Lang, LangContext, rememberLang, useT } from './i18n.js';
import { BrowsePage } from './pages/browse.js';
import { CheckPage } from './pages/check.js';
import { CultivarPage } from './pages/cultivar.js';
import { FamilyPage } from './pages/family.js';
import { GuildPage } from './pages/guild.js';
import { HomePage } from './pages/home.js';
import { NewPage, NewRecordPage } from './pages/new-record.js';
import { NotFound } from './pages/not-found.js';
import { SearchPage } from './pages/search.js';
import { SowPage } from './pages/sow.js';
import { SpeciesPage } from './pages/species.js';
import { SupplierPage, SuppliersPage } from './pages/supplier.js';
import { SessionContext, useUser } from './session.js';

/** Links the app handles itself; /auth/, /api/ and /img/ are loaded by the browser. */
const IN_APP = /^\/(?!auth\/|api\/|img\/)/;

function Header() {
  const { t, lang, setLang } = useT();
  const user = useUser();
  const { url } = useLocation();
  return (
    <header class="site-header">
      <a class="skip" href="#main">
        {t('skip')}
      </a>
      <div class="bar">
        <a class="brand" href="/">
          {t('siteName')}
        </a>
        <nav aria-label={t('mainNav')}>
          <ul>
            <li>
              <a href="/browse">{t('browse')}</a>
            </li>
            <li>
              <a href="/sow">{t('sow')}</a>
            </li>
            <li>
              <a href="/check">{t('check')}</a>
            </li>
            <li>
              <a href="/suppliers">{t('suppliers')}</a>
            </li>
          </ul>
        </nav>
        <div class="account">
          <button
            type="button"
            class="lang-switch"
            lang={lang === 'de' ? 'en' : 'de'}
            onClick={() => setLang(lang === 'de' ? 'en' : 'de')}
          >
            {t('otherLanguage')}
          </button>
          {user ? (
            <>
              {user.can_write ? (
                <a class="new-record" href="/new">
                  {t('newRecord')}
                </a>
              ) : null}
              <span class="who">
                {t('signedInAs')} {user.name ?? user.email}
              </span>
              <a href="/auth/oidc/logout">{t('signOut')}</a>
            </>
          ) : user === null ? (
            <a href={`/auth/oidc/login?return_to=${encodeURIComponent(url)}`}>{t('signIn')}</a>
          ) : null}
        </div>
      </div>
      <SearchBox />
    </header>
  );
}

/** Moves focus to the main region after an in-app navigation, so keyboard and reader users land there. */
function FocusOnNavigate() {
  const { url } = useLocation();
  const [first, setFirst] = useState(true);
  useEffect(() => {
    if (first) {
      setFirst(false);
      return;
    }
    document.getElementById('main')?.focus();
    window.scrollTo(0, 0);
  }, [url]);
  return null;
}

export function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [user, setUser] = useState<User | null | undefined>(undefined);
  useEffect(() => {
    api.get<User>('/auth/me').then(setUser, () => setUser(null));
  }, []);
  const setLang = (next: Lang) => {
    rememberLang(next);
    setLangState(next);
  };
  return (
    <LangContext.Provider value={{ lang, setLang }}>
      <SessionContext.Provider value={user}>
        <LocationProvider scope={IN_APP}>
          <FocusOnNavigate />
          <Header />
          <main id="main" tabIndex={-1}>
            <ErrorBoundary>
              <Router>
                <Route path="/" component={HomePage} />
                <Route path="/browse" component={BrowsePage} />
                <Route path="/search" component={SearchPage} />
                <Route path="/species/:slug" component={SpeciesPage} />
                <Route path="/families/:slug" component={FamilyPage} />
                <Route path="/cultivars/:slug" component={CultivarPage} />
                <Route path="/guild/:slug" component={GuildPage} />
                <Route path="/check" component={CheckPage} />
                <Route path="/sow" component={SowPage} />
                <Route path="/suppliers" component={SuppliersPage} />
                <Route path="/suppliers/:slug" component={SupplierPage} />
                <Route path="/new" component={NewPage} />
                <Route path="/new/:kind" component={NewRecordPage} />
                <Route default component={NotFound} />
              </Router>
            </ErrorBoundary>
          </main>
          <Footer />
        </LocationProvider>
      </SessionContext.Provider>
    </LangContext.Provider>
  );
}

function Footer() {
  const { t } = useT();
  return (
    <footer class="site-footer">
      <p>
        {t('openApi')} <a href="/api/docs">{t('apiDocs')}</a>
      </p>
    </footer>
  );
}

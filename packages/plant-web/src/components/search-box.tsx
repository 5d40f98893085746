import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, type SearchResult, withQuery } from '../api.js';
import { useT } from '../i18n.js';

const DEBOUNCE_MS = 200;

/** Where a search result's page is. */
export function resultHref(result: SearchResult): string {
  if (result.entity_type === 'family') return `/families/${result.slug}`;
  if (result.entity_type === 'cultivar') return `/cultivars/${result.slug}`;
  return `/species/${result.slug}`;
}

/** The result's name for people: the name in the page's language, then the other names. */
export function resultTitle(result: SearchResult, lang: 'de' | 'en'): { main: string; sub: string } {
  const local = lang === 'de' ? result.name_de : result.name_en;
  const other = lang === 'de' ? result.name_en : result.name_de;
  const sub = [result.name, other, result.species_name_scientific].filter(
    (v, i, all): v is string => !!v && v !== local && all.indexOf(v) === i,
  );
  return { main: local ?? result.name, sub: sub.join(' · ') };
}

/**
 * The search box of every page: a combobox whose suggestions come from /api/v1/search as the
 * person types (debounced); arrow keys move through them, Enter opens one, Escape closes the list.
 */
export function SearchBox() {
  const { t, lang } = useT();
  const { route } = useLocation();
  const id = useId();
  const [text, setText] = useState('');
  const [results, setResults] = useState<SearchResult[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const request = useRef(0);

  useEffect(() => {
    const q = text.trim();
    if (!/[\p{L}\p{N}]/u.test(q)) {
      setResults([]);
      return;
    }
    const mine = ++request.current;
    const timer = setTimeout(() => {
      api.get<SearchResult[]>(withQuery('/api/v1/search', { q, limit: 8 })).then(
        (found) => {
          if (mine !== request.current) return;
          setResults(found);
          setActive(-1);
          setOpen(true);
        },
        () => mine === request.current && setResults([]),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const go = (href: string) => {
    setOpen(false);
    setText('');
    route(href);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' && results.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % results.length);
    } else if (event.key === 'ArrowUp' && results.length > 0) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? results.length - 1 : i - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
    } else if (event.key === 'Enter' && open && active >= 0 && results[active]) {
      event.preventDefault();
      go(resultHref(results[active]));
    }
  };

  const listId = `${id}-list`;
  const expanded = open && results.length > 0;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role=search is the landmark every browser knows
    <form
      role="search"
      class="search-box"
      action="/search"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) go(withQuery('/search', { q: text.trim() }));
      }}
    >
      <label for={`${id}-input`} class="visually-hidden">
        {t('searchLabel')}
      </label>
      <input
        id={`${id}-input`}
        name="q"
        type="text"
        autocomplete="off"
        placeholder={t('searchPlaceholder')}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
        value={text}
        onInput={(event) => setText((event.target as HTMLInputElement).value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onFocus={() => results.length > 0 && setOpen(true)}
      />
      <button type="submit">{t('searchButton')}</button>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the combobox pattern's popup is a listbox of options, focus stays in the input */}
      <ul id={listId} role="listbox" class="suggestions" hidden={!expanded} aria-label={t('results')}>
        {results.map((result, i) => {
          const { main, sub } = resultTitle(result, lang);
          return (
            // biome-ignore lint/a11y/useFocusableInteractive: options are chosen with the arrow keys from the input (aria-activedescendant)
            <li
              key={result.id}
              id={`${id}-option-${i}`}
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                go(resultHref(result));
              }}
            >
              <span class="kind">{t(result.entity_type === 'family' ? 'family' : result.entity_type)}</span>{' '}
              <strong>{main}</strong> {sub ? <span class="sub">{sub}</span> : null}
            </li>
          );
        })}
      </ul>
    </form>
  );
}

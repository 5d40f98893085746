/**
 * A small scripted browser over real HTTP: a cookie jar (host-only cookies, path matching,
 * Max-Age), redirects followed hop by hop, and HTML forms read and submitted. Enough to walk
 * through the identity provider's login and consent pages as a person would.
 */

export interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expires: number | undefined;
  attributes: string[];
}

export interface Page {
  url: URL;
  status: number;
  headers: Headers;
  body: string;
}

export interface Form {
  action: URL;
  method: string;
  fields: Record<string, string>;
}

export class TestBrowser {
  readonly cookies: StoredCookie[] = [];
  /** Set-Cookie headers as received, newest last (to check attributes). */
  readonly setCookieLog: string[] = [];

  /**
   * @param proxies origin as the browser sees it → where it is really served, e.g.
   *   `https://plants.example` → `http://127.0.0.1:41234`, as a TLS-terminating proxy would.
   */
  constructor(private readonly proxies: Record<string, string> = {}) {}

  /** One request, no redirect following; sends and stores cookies. */
  async request(url: URL | string, init: RequestInit = {}): Promise<Page> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    const upstream = this.proxies[target.origin];
    const wire = upstream ? new URL(`${target.pathname}${target.search}`, upstream) : target;
    const response = await fetch(wire, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) this.store(target, header);
    return { url: target, status: response.status, headers: response.headers, body: await response.text() };
  }

  /** Follows redirects (at most 20) until a non-redirect, or until `stop` says so for the next URL. */
  async navigate(
    url: URL | string,
    init: RequestInit = {},
    stop?: (next: URL) => boolean,
  ): Promise<Page & { stoppedAt?: URL }> {
    let page = await this.request(url, init);
    for (let hop = 0; hop < 20; hop++) {
      const location = page.headers.get('location');
      if (page.status < 300 || page.status >= 400 || !location) return page;
      const next = new URL(location, page.url);
      if (stop?.(next)) return { ...page, stoppedAt: next };
      page = await this.request(next);
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Submits a form with its own fields plus `values`, following the redirects that result. */
  submit(form: Form, values: Record<string, string> = {}, stop?: (next: URL) => boolean) {
    const body = new URLSearchParams({ ...form.fields, ...values });
    return this.navigate(
      form.action,
      { method: form.method, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      stop,
    );
  }

  cookie(name: string, host = '127.0.0.1'): StoredCookie | undefined {
    return this.cookies.find((c) => c.name === name && c.host === host);
  }

  setCookie(host: string, name: string, value: string, path = '/'): void {
    this.store(new URL(`http://${host}${path}`), `${name}=${value}; Path=${path}`);
  }

  private cookieHeader(url: URL): string {
    const now = Date.now();
    return this.cookies
      .filter((c) => c.host === url.hostname && pathMatches(url.pathname, c.path))
      .filter((c) => url.protocol === 'https:' || !c.attributes.some((a) => a.toLowerCase() === 'secure'))
      .filter((c) => c.expires === undefined || c.expires > now)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, header: string): void {
    this.setCookieLog.push(header);
    const [pair = '', ...rest] = header.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
    let expires: number | undefined;
    for (const attribute of rest) {
      const [key = '', val = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = val;
      if (key.toLowerCase() === 'max-age') expires = Date.now() + Number(val) * 1000;
      if (key.toLowerCase() === 'expires' && expires === undefined) expires = Date.parse(val);
    }
    const index = this.cookies.findIndex(
      (c) => c.name === name && c.host === url.hostname && c.path === path,
    );
    if (index >= 0) this.cookies.splice(index, 1);
    if (expires !== undefined && expires <= Date.now()) return;
    this.cookies.push({ name, value, host: url.hostname, path, expires, attributes: rest });
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** The first form of an HTML page: action (resolved), method and every named input with a value. */
export function readForm(page: Page): Form {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(page.body);
  if (!form) throw new Error(`no form on ${page.url} (status ${page.status}): ${page.body.slice(0, 300)}`);
  const attrs = form[1] ?? '';
  const action = /\baction="([^"]*)"/i.exec(attrs)?.[1] ?? page.url.href;
  const method = /\bmethod="([^"]*)"/i.exec(attrs)?.[1]?.toUpperCase() ?? 'GET';
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input\b([^>]*)>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input[1] ?? '')?.[1];
    const value = /\bvalue="([^"]*)"/i.exec(input[1] ?? '')?.[1];
    if (name && value !== undefined) fields[name] = decodeEntities(value);
  }
  return { action: new URL(decodeEntities(action), page.url), method, fields };
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

import type { Cultivar, CultivarSupplier, Page, Supplier } from '../api.js';
import { useT } from '../i18n.js';
import { safeHref } from '../safe-href.js';
import { useApi } from '../use-api.js';
import { commonName } from './common.js';
import { YearBar } from './year-bar.js';

/** Where a cultivar can be bought: the supplier links, with price and pack where known. */
export function WhereToBuy({
  cultivar,
  suppliers,
}: {
  cultivar: Cultivar;
  suppliers: Supplier[] | undefined;
}) {
  const { t, lang } = useT();
  const links = useApi<CultivarSupplier[]>(`/api/v1/cultivars/${cultivar.slug}/suppliers`);
  const list = links.data ?? [];
  if (list.length === 0) return null;
  const byId = new Map((suppliers ?? []).map((s) => [s.id, s]));
  return (
    <div class="where-to-buy">
      <h4>{t('whereToBuy')}</h4>
      <ul>
        {list.map((link) => {
          const supplier = byId.get(link.supplier_id);
          const name = supplier?.name ?? t('supplier');
          const href = safeHref(link.product_url) ?? safeHref(supplier?.url);
          return (
            <li key={link.id}>
              {supplier ? <a href={`/suppliers/${supplier.slug}`}>{name}</a> : name}
              {href ? (
                <>
                  {' · '}
                  <a href={href}>{t('shop')}</a>
                </>
              ) : null}
              {link.price_eur !== null
                ? ` · ${link.price_eur.toLocaleString(lang, { style: 'currency', currency: 'EUR' })}`
                : ''}
              {link.pack_size !== null ? ` · ${link.pack_size} ${link.pack_unit ?? ''}` : ''}
              {supplier?.is_organic ? ' · Bio' : ''}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A species' cultivars, each with its year bar and where to buy it. */
export function CultivarList({ speciesSlug }: { speciesSlug: string }) {
  const { t, lang } = useT();
  const cultivars = useApi<Page<Cultivar>>(`/api/v1/cultivars?species=${speciesSlug}&per_page=100`);
  const suppliers = useApi<Supplier[]>('/api/v1/suppliers');
  const list = cultivars.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="cultivars-title" class="cultivars">
      <h2 id="cultivars-title">{t('cultivars')}</h2>
      <ul>
        {list.map((cultivar) => (
          <li key={cultivar.id}>
            <h3>
              <a href={`/cultivars/${cultivar.slug}`}>
                {cultivar.name}
                {commonName(cultivar, lang) && commonName(cultivar, lang) !== cultivar.name
                  ? ` (${commonName(cultivar, lang)})`
                  : ''}
              </a>
            </h3>
            <YearBar cultivar={cultivar} />
            <WhereToBuy cultivar={cultivar} suppliers={suppliers.data} />
          </li>
        ))}
      </ul>
    </section>
  );
}

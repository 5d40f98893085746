/** An image from the service's /img/ resizer: a srcset of widths, loaded lazily. */

/** Exactly the widths the service makes copies of (`?w=` of `/img`); any other is a 400 there. */
export const WIDTHS = [160, 320, 640, 1280];

export function Picture(props: {
  imageKey: string;
  alt: string;
  sizes: string;
  width?: number;
  class?: string;
}) {
  const base = `/img/${props.imageKey}`;
  const srcset = WIDTHS.map((w) => `${base}?w=${w} ${w}w`).join(', ');
  return (
    <img
      class={props.class}
      src={`${base}?w=${props.width ?? 320}`}
      srcset={srcset}
      sizes={props.sizes}
      alt={props.alt}
      loading="lazy"
      decoding="async"
    />
  );
}

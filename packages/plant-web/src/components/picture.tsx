/** An image from the service's /img/ resizer: a srcset of widths, loaded lazily. */
const WIDTHS = [160, 320, 640, 1024];

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

/** PictureData is a content picture (internal/images.Picture): the original at its hashed address, the srcset of its WebP copies, its alternative text and size. */
export interface PictureData {
  src: string;
  webp?: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * Picture shows a content picture at its size, so that the page keeps its
 * place while it loads, offering the WebP copies with the original as the
 * fallback. lazy: below the first screen, fetched as the reader nears it;
 * priority: the page's largest picture on the first screen, fetched first.
 */
export function Picture({ image, sizes, lazy, priority, className }: { image: PictureData; sizes: string; lazy?: boolean; priority?: boolean; className?: string }) {
  return (
    <picture>
      {image.webp && <source type="image/webp" srcSet={image.webp} sizes={sizes} />}
      <img
        className={className}
        src={image.src}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading={lazy ? "lazy" : undefined}
        decoding={lazy ? "async" : undefined}
        fetchPriority={priority ? "high" : undefined}
      />
    </picture>
  );
}

/** proseSizes is the width of a picture across a post's column (blog.css .container.post); handlers/images.go sizesProse says the same to the Markdown's pictures. */
export const proseSizes = "(min-width: 46rem) 44rem, 92vw";

import { useEffect, useRef, useState } from "react";
import { uploadedPictureSrcSet } from "../../contract/pictures";

/** A product picture that turns into 'Image not available' when it is missing or fails to load. */
export function ProductImage({
  src,
  alt,
  className = "",
  sizes = "(max-width: 40rem) 50vw, 20rem",
  eager = false,
  dimmed = false,
  inCard = false,
}: {
  src: string;
  alt: string;
  className?: string;
  /** How wide the picture shows, for an uploaded picture's srcset (a phone's card by default). */
  sizes?: string;
  /** Loaded at once: for the pictures of the first screen, one of which is usually its largest paint. */
  eager?: boolean;
  /** Faded (sold out). Only the picture: the 'Image not available' text keeps its contrast. */
  dimmed?: boolean;
  /**
   * A shop card's picture: never wider than 20rem, so its 320 px file at 1x and the 640 px one at 2x, without a
   * sizes list; the card's rule in app.css fits it. The shop repeats it dozens of times (issue 40).
   */
  inCard?: boolean;
}) {
  const srcSet = uploadedPictureSrcSet(src, inCard);
  const [failed, setFailed] = useState(!src);
  const image = useRef<HTMLImageElement>(null);

  // The image may have failed before hydration attached onError.
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0) setFailed(true);
  }, []);

  if (failed) {
    return (
      <div className={`grid place-items-center bg-slate-100 p-2 text-center text-xs text-slate-700 ${className}`}>
        Image not available
      </div>
    );
  }
  return (
    <img
      ref={image}
      src={inCard && srcSet ? src.replace("-640.", "-320.") : src}
      srcSet={srcSet}
      sizes={srcSet && !inCard ? sizes : undefined}
      alt={alt}
      // The pictures are 16:9 (uploads are cropped so): the size reserves the space before they load.
      width={640}
      height={360}
      loading={eager ? "eager" : "lazy"}
      onError={() => setFailed(true)}
      // Whole, never cropped: app.css fits every picture (issue 38).
      className={[dimmed && "opacity-50 grayscale", className].filter(Boolean).join(" ") || undefined}
    />
  );
}

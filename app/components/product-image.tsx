import { useEffect, useRef, useState } from "react";

/** A product picture that turns into 'Image not available' when it is missing or fails to load. */
export function ProductImage({ src, alt, className = "" }: { src: string; alt: string; className?: string }) {
  const [failed, setFailed] = useState(!src);
  const image = useRef<HTMLImageElement>(null);

  // The image may have failed before hydration attached onError.
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0) setFailed(true);
  }, []);

  if (failed) {
    return (
      <div className={`grid place-items-center bg-slate-100 p-2 text-center text-xs text-slate-500 ${className}`}>
        Image not available
      </div>
    );
  }
  return (
    <img
      ref={image}
      src={src}
      alt={alt}
      loading="lazy"
      onError={() => setFailed(true)}
      className={`object-cover ${className}`}
    />
  );
}

import { type FieldMetadata, getCollectionProps } from "@conform-to/react";
import { Fragment } from "react";
import { STAR_VALUES } from "../../../contract/feedback";
import { ErrorList } from "~/components/account/form-fields";

const starLabel = (stars: number) => `${stars} star${stars === 1 ? "" : "s"}`;

/** A rating as five stars, read out as "4 out of 5 stars". */
export function StarsShown({ stars, className = "text-lg" }: { stars: number; className?: string }) {
  return (
    <span role="img" aria-label={`${stars} out of 5 stars`} className={`whitespace-nowrap ${className}`}>
      {STAR_VALUES.map((value) => (
        <span key={value} aria-hidden="true" className={value <= stars ? "text-amber-500" : "text-slate-300"}>
          ★
        </span>
      ))}
    </span>
  );
}

/**
 * 1 to 5 stars as a group of real radio inputs: chosen by click, by Tab and the arrow keys, and posted as the
 * `stars` field with or without JavaScript. The radios are visually hidden; app.css lights the chosen star and
 * the ones before it, and rings the star whose radio has the keyboard focus.
 */
export function StarRatingInput({ meta, label = "Rating" }: { meta: FieldMetadata<number>; label?: string }) {
  const radios = getCollectionProps(meta, { type: "radio", options: STAR_VALUES.map(String) });
  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="text-sm font-semibold">{label}</legend>
      <div className="star-rating flex gap-1">
        {radios.map(({ key, ...radio }) => (
          <Fragment key={key}>
            <input {...radio} className="sr-only" />
            <label htmlFor={radio.id} className="cursor-pointer rounded px-0.5 text-3xl leading-none">
              <span aria-hidden="true">★</span>
              <span className="sr-only">{starLabel(Number(radio.value))}</span>
            </label>
          </Fragment>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

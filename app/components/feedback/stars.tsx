import { Fragment } from "react";
import { STAR_VALUES } from "../../../contract/browser/feedback";
import { ErrorList } from "~/components/account/form-fields";
import { type FieldMeta, getRadioGroupProps } from "~/lib/server-form";

const starLabel = (stars: number) => `${stars} star${stars === 1 ? "" : "s"}`;

/**
 * 1 to 5 stars as a group of real radio inputs: chosen by click, by Tab and the arrow keys, and posted as the
 * `stars` field with or without JavaScript. The radios are visually hidden; app.css lights the chosen star and
 * the ones before it, and rings the star whose radio has the keyboard focus.
 */
export function StarRatingInput({ meta, label = "Rating" }: { meta: FieldMeta; label?: string }) {
  const radios = getRadioGroupProps(meta, STAR_VALUES.map(String));
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

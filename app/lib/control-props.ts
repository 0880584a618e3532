/* Props of form controls that the HTML standard allows (issue 38); apart from server-form.ts, so a storefront page
   that needs neither does not load them (ADR 032). */

/**
 * A select whose options are all real choices always has one chosen, so it needs no `required`; HTML allows
 * `required` on a one-line select only when an empty placeholder option comes first (issue 38).
 */
export function choiceSelectProps<P extends { required?: boolean }>({ required: _, ...props }: P) {
  return props;
}

/** Text limits (minlength, maxlength, pattern) are not attributes of a date, time or number input (HTML). */
export function withoutTextLimits<P extends { minLength?: number; maxLength?: number; pattern?: string }>({
  minLength: _min,
  maxLength: _max,
  pattern: _pattern,
  ...props
}: P) {
  return props;
}

import { z } from "zod";

export { PUBLIC_ID_PATTERN } from "./browser/ids";
import { PUBLIC_ID_PATTERN } from "./browser/ids";

/** A public id field; `message` is what a malformed one answers. */
/* @__NO_SIDE_EFFECTS__ */
export function publicIdField(message?: string) {
  return z.string().regex(PUBLIC_ID_PATTERN, message);
}

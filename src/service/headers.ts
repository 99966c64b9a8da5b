/** Reading response headers, which Node gives as a string or, when repeated, a list. */

/** @returns the header's first value (e.g. `retry-after`, where only one makes sense) */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** @returns the header's values as one text, as HTTP folds a repeated header (e.g. `content-type`) */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

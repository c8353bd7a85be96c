/**
 * JSON that is safe inside a `<script type="application/json">` element: no `<` (so no `</script>` or
 * `<!--`), `>` or `&` as written, and no U+2028/U+2029; JSON.parse reads the escapes back unchanged.
 */
export function scriptSafeJson(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

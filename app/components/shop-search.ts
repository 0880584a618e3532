/** The search parameters the shop keeps on its links (product modal, its close link, the add-to-cart return). */
export function shopSearch(params: URLSearchParams, extra: Record<string, string> = {}): string {
  const kept = new URLSearchParams();
  for (const name of ["q", "category"]) {
    const value = params.get(name);
    if (value) kept.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) kept.set(name, value);
  const search = kept.toString();
  return search ? `?${search}` : "";
}

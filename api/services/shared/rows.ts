/** The ids of rows just read, for the `inArray` of the query that reads what belongs to them. */
export function idsOf(rows: readonly { id: string }[]): string[] {
  return rows.map((row) => row.id);
}

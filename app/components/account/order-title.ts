type TitledLine = { title: string; isReplacement: boolean };

/**
 * An order's name in lists: its first product, how many other products, and its warranty replacements
 * apart, since a replacement is not another product ("Melodia+ and 1 more, 1 replacement").
 */
export function orderTitle(order: { products: TitledLine[] }): string {
  const bought = order.products.filter((line) => !line.isReplacement);
  const replacements = order.products.length - bought.length;
  const [first] = bought.length > 0 ? bought : order.products;
  if (!first) return "Order";
  const others = bought.length - 1;
  const title = others > 0 ? `${first.title} and ${others} more` : first.title;
  return replacements > 0 ? `${title}, ${replacements} replacement${replacements === 1 ? "" : "s"}` : title;
}

/**
 * Site-relative path of a product's file as the seeds store it (the APIs return it absolute;
 * files/routes.ts serves it).
 */
export function productFilePath(productId: string, fileName: string): string {
  return `/files/products/${encodeURIComponent(productId)}/${encodeURIComponent(fileName)}`;
}

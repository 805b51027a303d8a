// The one DOM helper set the table page's modules share.

export const $ = (id) => document.getElementById(id);

// An element with a class and a text (both optional).
export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

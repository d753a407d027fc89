/** A bullet, dash or enumerator that opens a list item. */
export const LIST_MARKER = /^(?:[•●○◦▪■□‣⁃∙·*–—-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])$/i;

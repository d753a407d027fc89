/** A bullet, dash or enumerator that opens a list item. */
export const LIST_MARKER = /^(?:[•●○◦▪■□‣⁃∙·*–—-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])$/i;

/** The word that opens a figure's caption ("Figure 3", "Abb. 2.1"). */
export const CAPTION_START = /^(?:fig(?:ure)?|image|photo|chart|graph|diagram|plate|abbildung|abb|tableau|tabla|figura)\.?\s*\d*/i;

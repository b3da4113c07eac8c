/**
 * Glob matching where `*` stands for any run of characters (including none) and every other character
 * stands for itself. No regular expression is built from the pattern: the literal pieces are found
 * left to right with `indexOf`, which never backtracks, so the cost is at most the text length times
 * the pattern length whatever the input (`**********!` included).
 *
 * Leftmost placement of each middle piece is always safe: placing a piece earlier leaves more room for
 * the pieces after it, so if any placement works the leftmost one does.
 */
export const wildcardMatcher = (pattern: string): ((text: string) => boolean) => {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return (text) => text === pattern;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
  return (text) => {
    if (!text.startsWith(first) || !text.endsWith(last)) return false;
    const end = text.length - last.length;
    let at = first.length;
    if (at > end) return false;
    for (const piece of middle) {
      const found = text.indexOf(piece, at);
      if (found === -1 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
};

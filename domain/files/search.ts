import type { ItemType } from './item.js';

export type SearchScope = 'all' | 'personal' | 'shared';

export interface ItemSearch {
  readonly query: string;
  readonly scope: SearchScope;
  /** Limits the search to this folder and its subfolders; wins over `scope`. */
  readonly folderId?: string;
  readonly itemTypes?: readonly ItemType[];
  readonly creatorId?: string;
  readonly createdFrom?: string;
  readonly createdTo?: string;
  readonly namesOnly: boolean;
  readonly top: number;
}

export interface SearchResult {
  readonly Id: string;
  readonly Name: string;
  readonly FileName: string;
  readonly DisplayName: string;
  readonly ItemType: 'file' | 'folder';
  readonly Path?: string;
  readonly Rank: number;
  readonly Score: number;
  readonly ParentID?: string;
  readonly ParentName?: string;
  readonly ParentSemanticPath?: string;
  readonly Size: number;
  readonly CreatorName?: string;
  readonly CreationDate?: string;
  readonly MD5?: string;
  readonly VirusStatus?: number;
  readonly CanDownload?: boolean;
  readonly CanView?: boolean;
  readonly CanDelete?: boolean;
  /** Where the query matched: the name, the content or both (in-memory search; ShareFile does not say). */
  readonly MatchedIn?: readonly ('name' | 'content')[];
}

export interface SearchResults {
  readonly totalCount: number;
  readonly partialResults: boolean;
  readonly timedOut: boolean;
  readonly results: readonly SearchResult[];
}

/** A query is at most this long and has at most this many words: every word is looked for in every item. */
export const SEARCH_QUERY_LIMITS = { maxLength: 500, maxTerms: 20 } as const;

export const searchTerms = (query: string): string[] =>
  query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * Relevance of a name and (optional) text content to the query: 0 means no match. Every term must
 * appear in the name or the content; a whole-name match scores highest, then name matches, then
 * content matches (more occurrences score higher, capped).
 */
export const relevance = (
  query: string,
  name: string,
  content?: string,
): { score: number; matchedIn: ('name' | 'content')[] } => {
  const terms = searchTerms(query);
  if (!terms.length) return { score: 0, matchedIn: [] };
  const lname = name.toLowerCase();
  const lcontent = content?.toLowerCase();
  let score = 0;
  let inName = false;
  let inContent = false;
  for (const term of terms) {
    const nameHit = lname.includes(term);
    const contentHits = lcontent ? countOf(lcontent, term) : 0;
    if (!nameHit && contentHits === 0) return { score: 0, matchedIn: [] };
    if (nameHit) {
      inName = true;
      score += startsWord(lname, term) ? 30 : 15;
    }
    if (contentHits) {
      inContent = true;
      score += Math.min(20, 4 + contentHits * 2);
    }
  }
  const base = lname.replace(/\.[^.]+$/, '');
  if (base === query.trim().toLowerCase() || lname === query.trim().toLowerCase()) score += 40;
  return {
    score: Math.min(100, score),
    matchedIn: [...(inName ? ['name' as const] : []), ...(inContent ? ['content' as const] : [])],
  };
};

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether `term` occurs in `text` at the start of a word (at the start, or after a non-letter, non-digit). */
const startsWord = (text: string, term: string): boolean => {
  for (let i = text.indexOf(term); i !== -1; i = text.indexOf(term, i + 1)) {
    if (i === 0 || !WORD_CHAR.test(precedingChar(text, i))) return true;
  }
  return false;
};

/** The character before index `i`, a whole surrogate pair when there is one. */
const precedingChar = (text: string, i: number): string => {
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text.slice(i - 1, i);
};

const countOf = (haystack: string, needle: string): number => {
  let n = 0;
  let i = haystack.indexOf(needle);
  while (i !== -1 && n < 50) {
    n++;
    i = haystack.indexOf(needle, i + needle.length);
  }
  return n;
};

import type { WebSearchHit } from '../../ports/web.js';

// Whether a search result has anything to do with the query. Search engines answer nearly every query with
// something (spelling guesses, popular pages, one common word matched), and neither backend gives a score
// that means the same from one query to the next (Brave gives none; SearXNG's score sums engine positions),
// so the gateway judges by the one thing every backend gives: does a word of the query appear in the result's
// title, address or snippet? Common words ("the", "of", "how") do not count: a nonsense query that shares only
// them with a page has not matched it.

/** How a result relates to the query's words. */
export type Relevance = 'strong' | 'partial' | 'weak';

export interface JudgedHit extends WebSearchHit {
  /** strong: every query word appears; partial: some do, a distinctive one among them; weak: none does, or only generic ones. */
  readonly relevance: Relevance;
  /** The query words the result contains. */
  readonly matched: readonly string[];
}

export interface JudgedResults {
  /** The words of the query that the judgement uses (no common words); empty when there are none to judge by. */
  readonly terms: readonly string[];
  /** Those of `terms` a relevant result must contain one of (the distinctive ones, or all when none is). */
  readonly keyTerms: readonly string[];
  /** Results that contain at least one query word, in the backend's order, then the weak ones. */
  readonly hits: readonly JudgedHit[];
  readonly relevantCount: number;
}

const COMMON = new Set(
  (
    'a an and are as at be but by can do does for from how i if in into is it its me my no not of on or our ' +
    'so than that the their them then there these this to was we what when where which who why will with you ' +
    'your about all any also get has have just more most new near best vs via www http https com org net html'
  ).split(' '),
);

/**
 * Words a query keeps (they say what it is about) but that alone do not make a page relevant: almost every
 * page about places, people or businesses has one ("find", "owner", "street", "services"). A result that
 * matches only these is weak, as the text has always worded it ("Matches only: way (not harbor, renovation)");
 * a query made only of them is judged by them.
 */
const GENERIC = new Set(
  (
    'find search look lookup owner owners way street st road rd ave avenue drive dr lane ln blvd court ct ' +
    'house houses home homes property properties real estate company companies business service services ' +
    'info information page website site online free top list guide local city county state contact phone ' +
    'number email address name people inc llc co buy sell sale rent price cost review reviews official near'
  ).split(' '),
);

/** Scripts written without spaces between words: a query word is found by substring there. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The query's words that say what it is about: lower case, once each, without common words and lone letters. */
export const queryTerms = (query: string): string[] => [
  ...new Set(wordsOf(query).filter((w) => !COMMON.has(w) && (w.length > 1 || /\p{N}/u.test(w) || UNSPACED.test(w)))),
];

const sharedPrefix = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * A query word appears in a text's words: the same word, a longer form of it ("harbor" in "harbors"), a
 * shorter form ("houses" for "house"), or one stem ("renovation" and "renovated" share "renovat").
 */
const appears = (term: string, words: readonly string[], text: string): boolean => {
  if (UNSPACED.test(term)) return text.includes(term);
  return words.some(
    (w) =>
      w === term ||
      (term.length >= 3 && w.startsWith(term)) ||
      (w.length >= 4 && term.startsWith(w)) ||
      sharedPrefix(w, term) >= 5,
  );
};

/** Judges each result against the query's words; relevant results keep the backend's order and come first. */
export const judgeResults = (query: string, hits: readonly WebSearchHit[]): JudgedResults => {
  const terms = queryTerms(query);
  // A match counts when it holds a distinctive word; a query of generic words only is judged by those.
  const distinctive = terms.some((t) => !GENERIC.has(t)) ? (t: string) => !GENERIC.has(t) : () => true;
  const judged = hits.map((h): JudgedHit => {
    if (!terms.length) return { ...h, relevance: 'strong', matched: [] };
    let address = h.url;
    try {
      address = decodeURIComponent(h.url);
    } catch {
      // an address with a stray % is read as it is
    }
    const text = `${h.title} ${h.snippet} ${address}`.toLowerCase();
    const words = wordsOf(text);
    const matched = terms.filter((t) => appears(t, words, text));
    const relevance: Relevance =
      matched.length === terms.length ? 'strong' : matched.some(distinctive) ? 'partial' : 'weak';
    return { ...h, relevance, matched };
  });
  const relevant = judged.filter((h) => h.relevance !== 'weak');
  return {
    terms,
    keyTerms: terms.filter(distinctive),
    hits: [...relevant, ...judged.filter((h) => h.relevance === 'weak')],
    relevantCount: relevant.length,
  };
};

// The indefinite article of a phrase that messages build from parts ("must be a string", "an object with
// ...", "one of "a", "b""): chosen by the sound of the word that follows, and left out where English puts
// none (before "one of ...", a quoted literal or a number).

/** Words spelled with a vowel that start with a consonant sound: "a one", "a unique", "a user", "a euro". */
const CONSONANT_SOUND = /^(one\b|once\b|uni|use|usu|uti|uri|eu|ewe)/;
/** Words spelled with an h that is not spoken: "an hour", "an honest". */
const SILENT_H = /^(hour|honest|honou?r|heir)/;
/** Letters whose names start with a vowel sound, for initialisms read letter by letter: "an HTTP", "an MCP". */
const VOWEL_LETTER_NAMES = 'AEFHILMNORSX';

/** "a" or "an" for the word `phrase` starts with. */
export const articleFor = (phrase: string): 'a' | 'an' => {
  const word = phrase.trimStart().split(/[\s,;:.()]/, 1)[0] ?? '';
  if (word.length > 1 && /^[A-Z0-9]+$/.test(word) && /[A-Z]/.test(word[0]!))
    return VOWEL_LETTER_NAMES.includes(word[0]!) ? 'an' : 'a';
  const lower = word.toLowerCase();
  if (SILENT_H.test(lower)) return 'an';
  if (CONSONANT_SOUND.test(lower)) return 'a';
  return /^[aeiou]/.test(lower) ? 'an' : 'a';
};

/**
 * The phrase with its indefinite article: "an object", "a unique id", "an HTTP address". Without one where
 * English puts none: a choice ("one of ..."), a literal in quotes or brackets, a number, true, false or null.
 */
export const withArticle = (phrase: string): string => {
  const p = phrase.trimStart();
  if (/^(one of\b|either\b|any\b|true$|false$|null$)/i.test(p) || /^["'`[{(\-\d]/.test(p)) return p;
  return `${articleFor(p)} ${p}`;
};

// The words of tool search (issue 30, issue 41): stop words, a light stemmer, and the words agents use for
// what the catalogue names otherwise. General meanings only, never tool names, so that they help phrasings not
// yet seen.

export const STOP = new Set(
  (
    "a an and any are as at be by can could do does for from give has have how i i'd i'm in into is it its " +
    'let me my need of on or our please show some tell than that the their them then there these this those to ' +
    'us want we what whats where which whom why will with would you your all every just one about still also ' +
    'again already yet exactly instead'
  )
    .split(' ')
    .filter(Boolean),
);

/** Words the suffix rules would take for another word (news is not new). */
const UNSTEMMED = new Set(['news', 'series', 'always', 'perhaps', 'analysis']);

/** A light suffix stripper: enough that delete/deleted/deletion, share/shares/sharing meet at one stem. */
export const stem = (word: string): string => {
  let w = word;
  if (w.length <= 3 || /^\d/.test(w) || UNSTEMMED.has(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ation', 'ion', 'ing', 'ed', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  // a doubled final consonant left by -ing/-ed (dropped -> dropp) is one
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss)$/.test(w)) w = w.slice(0, -1);
  return w;
};

/** The words of a text: camelCase and `_` split, lower-cased, stop words dropped (unless `keep` them), stemmed. */
export const words = (text: string, keep: (stop: string) => boolean = () => false): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && ((!STOP.has(w) && !STOP.has(stem(w))) || keep(w)))
    .map(stem);

/**
 * Words agents use for what the catalogue names otherwise. `their words = ours`: the same meaning, searched
 * for as if the query said it; `their words: ours`: related words, searched for at RELATED_WEIGHT (at 1 when
 * the query's word is in none of the tools, as it then has no other meaning here). A word's related words
 * share its weight (each gets 1/sqrt(n) of it). General meanings only, no tool names, so that it helps
 * phrasings not yet seen. Stemmed when the module loads.
 */
const SYNONYM_TABLE = `
remove erase trash bin discard throw rid revoke purge wipe nuke kill scrap ditch axe zap = delete
undo undelete recover = restore
add = create
edit modify alter = update
relationship = relation
lookup locate = search
duplicate clone = copy
relocate = move
properties = property
shared = share
cancel kick: delete end remove
new leave post: create
ask: request
make turn: update create
show display see open: list get read
over above below under greater less more fewer: filter
set fix: update
swap switch flip toggle replace: update write
change: update revision
rename: update name
extend prolong: update expiration
mark: update
promote demote: role update
admin rights permission: role member
look: search find
find: search
google online internet news: search web
website article: web page
link: url share
browse: list folder
say says contents: text read
person people customer lead client prospect anyone someone anybody somebody profile: contact
who: contact member
item: record
root: top level folder home
homeowner landlord: owner skip trace property
directory: folder
doc document pdf spreadsheet video image photo memo report agreement contract lease nda invoice: file
put: move write
save store: write file
jot = write
send sent: share email notification
remind resend ping nudge: notification send email
table database: app
column attribute: field property
field: property
status stage: field record
row entry ticket deal task: record
import bulk many load: batch create
total average sum: aggregate
count: aggregate count
history before previous earlier prior: revision
version: revision
note discussion conversation thread: comment
workspace team: space
invite: member add
grant: role member update
start begin launch: create
log register = create
access: member
org company: organization
owner own: skip trace property
house home building: property
parcel: apn property
phone: owner phone
attach: upload file
linked tied connected associated: relation related
outcome succeed success fail failure error bomb: result
pick choose: value option
big large: size
modified when: date
overdue due passed late past: filter
month week year today yesterday: date created filter
recently recent latest: newest
private public: privacy
`;

/** Phrases that mean one catalogue word, replaced before the words are split. */
export const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bset up\b/g, 'create'],
  [/\b(?:spin|stand) up\b/g, 'create'],
  [/\bopen (?:up )?(?:a |an )?new\b/g, 'create new'],
  [/\btake down\b/g, 'delete'],
  // "X belongs in the Y folder": move it there
  [/\bbelongs? (?:in|inside|under)\b/g, 'move to'],
  [/\blook up\b/g, 'search'],
  [/\bget rid of\b/g, 'delete'],
  [/\bhow many\b/g, 'count'],
  // "what did row 12 look like before the last edit": an earlier version
  [/\blook(?:ed|s)? like (?:before|earlier|previously|back)\b/g, 'revision'],
  [/\bsign up\b/g, 'create'],
  [/\bshut down\b/g, 'delete'],
  // "what's in it" asks for a thing's contents; "what's in <a place>" lists the place
  [/\bwhat(?:'s| is|s) in(?:side)? it\b/g, 'contents'],
  [/\bwhat(?:'s| is|s) in(?:side)?\b/g, 'list'],
  [/\b(?:in one go|all at once|at once|in bulk|in one shot)\b/g, 'batch'],
  // "what apps are in the X space": the things of a kind inside another
  [/\bwhat (\w+) (?:are|is) (?:there )?in(?:side)?\b/g, 'list $1 in'],
  [/\bwhose\b/g, 'filter'],
  // the records a field may hold ("which leads can go in the Lead field", "which properties can I pick for it")
  [
    /\b(?:can|could|may|might) (?:go|be put|be used) in(?:to)? (?:the|a|an|its|their) (\w+) field\b/g,
    'can reference $1 field',
  ],
  [/\b(?:can|could|may) (?:i|we) (?:pick|choose|select|use|put in) (?:for|in)\b/g, 'can reference for'],
  // "send the folder to her as a link": a share of it, sent
  [/\bsend\b((?: [\w'.@-]+){1,8}?) as an? (?:\w+ )?link\b/g, 'create share$1 as a link'],
  // "send it to her again": a reminder of what was sent
  [/\bsend\b((?: [\w'.@-]+){0,4}?) again\b/g, 'resend$1'],
  // "send the Contracts folder to her by email": a share of it, sent (not "send it to her again", a reminder)
  [/\bsend\b((?: (?!again\b)[\w'.@-]+){1,8}?) (?:by|via|over|in an?) e-?mail\b/g, 'create share$1 email'],
  // "which leads have a follow-up date that has passed": the things of a kind that meet a condition
  [
    /\bwhich (\w+) (?:have|has|had|are|is|were|was) (?=(?:a|an|no|the|their|its|not|never|been|still|over|under|more|less|an?)\b)/g,
    'filter $1 ',
  ],
  // everything in a place lists it ("pull up everything in the Work Orders app")
  [/\b(?:everything|every thing|all(?: of)? it) (?:in|inside|from|under)\b/g, 'list all in'],
  [/\bwhere (?:the |its |their )?\w+ (?:is|are|was|were|has|have)\b/g, 'filter'],
  [/\bclose down\b/g, 'delete'],
  [/\bhome ?owner'?s?\b/g, 'homeowner'],
  // a verb whose particle says what it does (issue 41, seventh round): "pull up" / "bring up" a thing shows
  // it, "pop in" / "stick in" / "pencil in" a thing adds it (read before "pull X in" and "put … in")
  [/\b(?:pull|bring|call) up\b/g, 'show'],
  // "open up" a place to people ("… to everyone", "… so anyone can join") changes who may come in; "open up the
  // file" still shows it (issue 41, eighth round)
  [
    /\bopen up\b((?: [\w'.-]+){1,6}?)(?=,? (?:so|to|for) (?:that )?(?:anyone|everyone|everybody|anybody|all|the whole|the (?:company|team|org|office|public)|outsiders|guests)\b)/g,
    'set$1 open',
  ],
  [/\b(?:pop|stick|pencil|slot|punch|key) (?:in|down)\b/g, 'add'],
  // a verb and its particle with up to three words between ("take Lena out of", "bring it back")
  // "get lead 22 back out of the trash" is a restore: "back" is read before "out of"
  [/\b(?:bring|get|put|let|pull)\b((?: [\w'-]+){1,3}?) back\b/g, 'restore$1'],
  [/\b(?:take|kick|throw|pull|get|boot|drop)\b((?: [\w'-]+){1,3}?) out(?: of)?\b/g, 'remove$1 from'],
  // a verb of throwing away with "into" a place that is no bin puts the thing there (issue 41, eighth round):
  // into an app it adds a record ("throw a new lead into the Leads app"), elsewhere it moves the thing (as the
  // lexicon reads "chuck" and "dump" with "into")
  [
    /\b(?:throw|toss|dump|chuck|drop|shove|stick)\b((?: [\w'.,-]+){1,8}?) into ((?:the |our |my |a )?(?:[\w'-]+ ){0,3}(?:app|table|database))\b/g,
    'add$1 to $2',
  ],
  [
    /\b(?:throw|toss)\b((?: [\w'.,-]+){1,8}?) into (?!(?:the |a |my |our )?(?:trash|bin|garbage|rubbish|recycle|recycling|wastebasket)\b)/g,
    'move$1 to ',
  ],
  [/\b(?:bring|let|get|loop|rope)\b((?: [\w'-]+){1,3}?) in(?:to)?\b/g, 'add$1 to'],
  // "pull every entry in the view" reads them; "pull Tom into the space" adds him
  [/\bpull\b((?: [\w'-]+){1,3}?) into\b/g, 'add$1 to'],
  [/\b(?:came|come|comes|coming) in\b/g, 'created'],
  // "give me / us" asks for something; giving someone something changes what they have
  [/\bgive\b(?! (?:me|us)\b)/g, 'grant'],
];

/**
 * Words that ask for a change. A query with none of them, or one that is put as a question ("which shares
 * have we sent out?", "do we have anyone from acme.com"), asks to read: Read tools rank first.
 */
export const CHANGE_WORDS: ReadonlySet<string> = new Set(
  (
    'create add insert make build set update edit change modify alter rename move relocate put copy duplicate ' +
    'clone delete remove erase trash discard archive purge wipe restore undo undelete recover write save store ' +
    'upload attach import load send resend share invite grant promote demote end cancel revoke kick post mark ' +
    'assign link unlink comment note discussion reply fix extend prolong bring take start stop close grant begin ' +
    'swap switch flip toggle replace'
  )
    .split(' ')
    .map(stem),
);

/** Words that open a question, or a request to read. */
export const QUESTION_OPENERS: ReadonlySet<string> = new Set(
  (
    'who whom whose what whats which when where how is are was were do does did have has any anything anyone ' +
    'show list get find read open see look search fetch pull check view display count tell'
  ).split(' '),
);

export interface Synonyms {
  readonly same: readonly string[];
  readonly related: readonly string[];
}

export const SYNONYMS: ReadonlyMap<string, Synonyms> = (() => {
  const table = new Map<string, { same: Set<string>; related: Set<string> }>();
  for (const line of SYNONYM_TABLE.trim().split('\n')) {
    const same = line.includes('=');
    const [theirs = '', ours = ''] = line.split(same ? '=' : ':');
    const targets = ours.trim().split(/\s+/).map(stem);
    for (const w of theirs.trim().split(/\s+/)) {
      const key = stem(w);
      const entry = table.get(key) ?? { same: new Set<string>(), related: new Set<string>() };
      for (const t of targets) if (t !== key) entry[same ? 'same' : 'related'].add(t);
      table.set(key, entry);
    }
  }
  return new Map([...table].map(([k, v]) => [k, { same: [...v.same], related: [...v.related] }]));
})();

/** Words before a command's verb that say nothing of it ("please", "can you", "I need to"). */
const POLITE =
  /^(?:(?:please|pls|kindly|quickly|now|ok|okay|hey|so|then|go ahead and|can you|could you|would you|will you|i need to|i want to|i'd like to|we need to|let's|lets|help me|try to)\s+)+/;

/**
 * A request put as a question ("…, can you bring it back?"), or made after a statement ("Maria never got the
 * email; please resend it"): the verb asked for.
 */
export const ASKED = /\b(?:(?:can|could|would|will) (?:you|we) (?:please |just )?|[,;:.!?] +(?:so )?please )([a-z]+)/;

/** The verb a command starts with (or that "can you" asks for) and what it means here; none for a question (asksToRead says which). */
export const leadingVerb = (
  phrased: string,
  lexical: ReadonlyMap<string, readonly string[]> = new Map(),
): { verb: string[]; verbRelated: readonly string[] } => {
  const first =
    ASKED.exec(phrased)?.[1] ??
    phrased
      .trim()
      .replace(POLITE, '')
      .split(/[^a-z']+/)[0] ??
    '';
  if (!first || STOP.has(first)) return { verb: [], verbRelated: [] };
  const verb = stem(first);
  // a verb the word list does not know means what the lexicon says ("whip up": create)
  const synonyms = SYNONYMS.get(verb) ?? { same: [], related: lexical.get(verb) ?? [] };
  return { verb: [verb, ...synonyms.same], verbRelated: synonyms.related };
};

/**
 * Whether a query asks to read: put as a question or a request to read, or with no word of change. `lexical`:
 * what the lexicon says the query's verbs mean (lexicon.ts), for verbs the word list does not know.
 */
export const asksToRead = (query: string, lexical: ReadonlyMap<string, readonly string[]> = new Map()): boolean => {
  const first =
    query
      .trim()
      .toLowerCase()
      .split(/[^a-z']+/)[0] ?? '';
  const change = (w: string) =>
    isChange(w) || (!SYNONYMS.has(w) && (lexical.get(w)?.some((m) => CHANGE_WORDS.has(m)) ?? false));
  // "can you bring it back?" asks for a change, though put as a question
  // (a verb asked for whose only meanings here are changes counts: "could you leave a note": create)
  const asked = ASKED.exec(query)?.[1];
  const changes = (w: string) => {
    const related = SYNONYMS.get(w)?.related ?? [];
    return change(w) || (related.length > 0 && related.every((r) => CHANGE_WORDS.has(r)));
  };
  if (asked !== undefined && changes(stem(asked))) return false;
  if (query.trim().endsWith('?') || QUESTION_OPENERS.has(first.replace(/'s$/, ''))) return true;
  // a verb of change in the past ("leads created this month", "the deleted records") says which things, it
  // does not ask for a change
  const present = words(query.replace(/\b[a-z]{3,}ed\b/gi, ' '), (w) => SYNONYMS.has(stem(w)));
  return !present.some(change);
};

const isChange = (w: string): boolean =>
  CHANGE_WORDS.has(w) || (SYNONYMS.get(w)?.same.some((s) => CHANGE_WORDS.has(s)) ?? false);

/** A bare domain in a task ("anyone from acme.com") is most often a company's e-mail domain. */
export const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|co|dev|biz|us|uk|de|fr|pt|es|it|ca|au)[?.,!]?$/;

/** Words the word lists give a meaning of their own: the general lexicon does not speak for them. */
export const knownWord = (w: string): boolean =>
  SYNONYMS.has(w) || CHANGE_WORDS.has(w) || QUESTION_OPENERS.has(w) || STOP.has(w);

/**
 * The plural nouns of a tool's name, as they are written (`listShares`: "=shares"): a query that says "shares"
 * asks for the tool that gives many, more than for the one that reads one share (the stems are the same).
 */
export const pluralsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(isPlural)
    .map((w) => `=${w}`);
export const isPlural = (w: string) =>
  w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w) && !UNSTEMMED_PLURAL.test(w);
const UNSTEMMED_PLURAL = /^(news|series|always|perhaps|analysis|does|this|has|was|is|its|yes|less|unless)$/;

/** The words written with a capital inside a sentence ("Harbor Lending", "Omar Haddad"): names, lower-cased. */
export const capitalised = (text: string): Set<string> =>
  new Set(
    [...text.matchAll(/(?<![.!?:;]\s+|^\s*)\b([A-Z][a-z]+)/g)]
      .map(([, w]) => w!.toLowerCase())
      .filter((w) => !STOP.has(w) && w !== 'please'),
  );

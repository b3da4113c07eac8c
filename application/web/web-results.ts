import * as t from 'io-ts';
import { nullable, resultObject } from '../runtime/results.js';

// The web tools' structured results.

export const PageResult = resultObject('Page', {
  url: t.string,
  final_url: t.string,
  title: nullable(t.string),
  content_type: t.string,
  kind: t.keyof({ html: null, pdf: null, json: null, csv: null, text: null, markdown: null, xml: null, binary: null }),
  bytes: t.number,
  fetched_at: t.string,
  fetch_ms: t.number,
  cached: t.boolean,
  offset: t.number,
  next_offset: nullable(t.number),
  total_chars: t.number,
  text: t.string,
});

export const SearchResult = resultObject(
  'WebSearch',
  {
    count: t.number,
    /** Results that contain at least one word of the query; they come first. */
    relevant_count: t.number,
    /** True when the search returned results but none contains a word of the query. */
    nothing_relevant: t.boolean,
    results: t.array(
      resultObject(
        'WebHit',
        {
          title: t.string,
          url: t.string,
          snippet: t.string,
          relevance: t.keyof({ strong: null, partial: null, weak: null }),
          matched_words: t.array(t.string),
        },
        { published: t.string },
      ),
    ),
  },
  { advice: t.string },
);

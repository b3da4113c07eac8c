import * as t from 'io-ts';
import { resultObject } from '../runtime/results.js';

// The files tools' structured results (ShareFile's member names). The item shape is not declared yet: with
// every member and one level of children its schema costs about 540 tokens in each tool's listing.

export const DownloadResult = resultObject(
  'DownloadSpecification',
  { 'odata.metadata': t.string, 'odata.type': t.string, DownloadUrl: t.string },
  { DownloadToken: t.string, ExpiresAt: t.string, FileName: t.string },
);

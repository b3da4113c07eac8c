/**
 * A module (or anything loaded once) imported on the first call and kept: the promise, so that concurrent
 * first calls share one import; a failed import is tried again on the next call rather than kept failing.
 */
export const onFirstUse = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
};

// The pool's test worker, slow to start: its module takes 1.5 s to load (a synchronous wait, in the worker's
// own thread), as a real reader's libraries take time to load on a busy machine.
const loaded = Date.now() + 1500;
while (Date.now() < loaded);

export { default } from './pool-test-worker.js';

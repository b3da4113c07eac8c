import { h, replace } from './dom.js';
import { startView, textOf } from './shell.js';

// The approval card's view: the card itself is the shell's (every view shows one for an approval ask);
// once a call has run, its answer is shown as the text the model reads.
startView('approval', (answer, ctx) => {
  replace(ctx.root, h('section', { 'aria-label': 'Result' }, h('pre', {}, textOf(answer))));
});

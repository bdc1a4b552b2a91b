import test from 'ava';
import { esc, field } from '../../../lib/danfe/html.js';

test('esc escapes the five HTML-significant characters and nothing else', (t) => {
  t.is(esc(`<script>alert("x") & 'y'</script>`), '&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;');
  t.is(esc('Ação São João — 100%'), 'Ação São João — 100%');
  t.is(esc(null), '');
  t.is(esc(12), '12');
});

test('field escapes label and value and keeps an empty value visible', (t) => {
  t.is(field('A<B', 'x&y'), '<td class="f"><span class="l">A&lt;B</span><span class="v">x&amp;y</span></td>');
  t.is(field('Vazio', '', 'r'), '<td class="f r"><span class="l">Vazio</span><span class="v">&nbsp;</span></td>');
});

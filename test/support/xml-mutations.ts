/**
 * Ways XML text differs from its canonical form, or from another spelling of the same document
 * (attribute order and quoting, empty-element tags, character and entity references, comments,
 * PIs, CDATA, whitespace inside tags and between elements, namespace declarations added,
 * repeated, reordered or undeclared, xml: attributes), applied at random places with a seeded
 * generator: the differential tests of the canonical-text path against libxml2's C14N
 * (test/lib/xml/canonical-text.test.ts, signed-text.test.ts) and of the Sefin signature check
 * (test/lib/sefin/simulator/signature-differential.test.ts) draw their documents from it.
 */
/** A small deterministic generator, mulberry32 (the same documents on every run). */
export function generator(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

export const at = <T>(rnd: (n: number) => number, xs: T[]): T | undefined => xs[rnd(xs.length)];
export const spliceAt = (s: string, i: number, remove: number, insert: string) => s.slice(0, i) + insert + s.slice(i + remove);

/** Ways documents differ from their canonical form, or from each other, applied at random places. */
export function mutations(rnd: (n: number) => number): ((s: string) => string)[] {
  const matches = (s: string, re: RegExp) => [...s.matchAll(re)];
  return [
    (s) => s.replace(/<(\w+) (\w+)="([^"]*)" (\w+)="([^"]*)"/, '<$1 $4="$5" $2="$3"'),
    (s) => { const m = at(rnd, matches(s, /="([^"]*)"/g)); return m ? spliceAt(s, m.index!, m[0].length, `='${m[1]}'`) : s; },
    (s) => s.replace(/<(\w+)([^>]*)><\/\1>/, '<$1$2/>'),
    (s) => { const m = at(rnd, matches(s, />([A-Za-z])/g)); return m ? spliceAt(s, m.index! + 1, 1, `&#${m[1]!.charCodeAt(0)};`) : s; },
    (s) => { const m = at(rnd, matches(s, /="[^"]*"/g)); return m ? spliceAt(s, m.index! + 2, 0, '&gt;x&quot;&#x9;') : s; },
    (s) => { const m = at(rnd, matches(s, /<\/\w+>/g)); return m ? spliceAt(s, m.index!, 0, '<!-- c -->') : s; },
    (s) => { const m = at(rnd, matches(s, /<(\w+)>/g)); return m ? spliceAt(s, m.index!, m[0].length, `<${m[1]} xmlns="http://www.portalfiscal.inf.br/nfe">`) : s; },
    (s) => { const m = at(rnd, matches(s, /<(\w+)>/g)); return m ? spliceAt(s, m.index!, m[0].length, `<${m[1]} xmlns:u="urn:u">`) : s; },
    (s) => s.replace(/></, '>\r\n<'),
    (s) => s.replace(/></g, () => (rnd(8) === 0 ? '>\n  <' : '><')),
    (s) => s.replace(/<(\w+) /, '<$1  '),
    (s) => s.replace(/"(\s*)>/, '" >'),
    (s) => s.replace(/^<(\w+)/, '<$1 xml:lang="pt"'),
    (s) => s.replace(/^<(\w+)/, '<$1 xmlns:zz="urn:zz"'),
    (s) => { const m = at(rnd, matches(s, />([^<]+)</g)); return m ? spliceAt(s, m.index! + 1, m[1]!.length, `<![CDATA[${m[1]}]]>`) : s; },
    (s) => { const m = at(rnd, matches(s, /<\/\w+>/g)); return m ? spliceAt(s, m.index!, 0, '<?pi  data?>') : s; },
    (s) => { const m = at(rnd, matches(s, /="[^"]*"/g)); return m ? spliceAt(s, m.index! + 2, 0, '\tx\n') : s; },
    (s) => { const m = at(rnd, matches(s, />[^<]+</g)); return m ? spliceAt(s, m.index! + 1, 0, 'a>b "q" \'s\' Ç ☃ 😀') : s; },
    (s) => s.replace(/<\/(\w+)>/, '</$1 >'),
    (s) => { const m = at(rnd, matches(s, /<(\w+)( [^>]*)?>/g)); return m ? spliceAt(s, m.index!, m[0].length, `<${m[1]}${m[2] ?? ''} xmlns="">`) : s; },
    (s) => s.replace(/<(\w+)>/, '<$1 xmlns:a="urn:1" xmlns:b="urn:2">'),
    (s) => s.replace(/<(\w+)>/, '<$1 xmlns:b="urn:2" xmlns:a="urn:1">'),
    (s) => s.replace(/<(\w+)>([^<]*)<\/\1>/, '<ns1:$1 xmlns:ns1="urn:n">$2</ns1:$1>'),
    (s) => { const m = at(rnd, matches(s, />[^<]+</g)); return m ? spliceAt(s, m.index! + 1, 0, '&#xD;&#13;&#10;') : s; },
    (s) => s.replace(/<(\w+) /, '<$1 b="&lt;&amp;" '),
    (s) => s.replace(/<(\w+)>/, '<$1 z="1" a="2">'),
    (s) => { const m = at(rnd, matches(s, />([A-Za-z])/g)); return m ? spliceAt(s, m.index! + 1, 1, `&#x${m[1]!.charCodeAt(0).toString(16)};`) : s; },
    (s) => { const m = at(rnd, matches(s, />[^<]+</g)); return m ? spliceAt(s, m.index! + 1, 0, '&apos;&quot;') : s; },
    (s) => s.replace(/^<(\w+) xmlns="([^"]+)"/, '<$1 xmlns="$2" xmlns:n="$2"'),
  ];
}

/** `base` after 0 to 3 mutations drawn with `rnd`. */
export function mutated(rnd: (n: number) => number, base: string, mutate: ((s: string) => string)[]): string {
  let xml = base;
  for (let j = rnd(4); j > 0; j--) xml = at(rnd, mutate)!(xml);
  return xml;
}

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvRecords } from './csv-records';

/** Parses `text` pushed in pieces cut at `cuts` (character offsets). */
function records(text: string, delimiter = ';', cuts: number[] = []): string[][] {
  const parser = new CsvRecords(delimiter);
  const out: string[][] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    parser.push(text.slice(from, cut), out);
    from = cut;
  }
  parser.push(text.slice(from), out);
  return parser.end(out);
}

/** Every way of cutting `text` in two, plus every character alone. */
function allSplits(text: string, delimiter = ';'): string[][][] {
  const results = [
    records(
      text,
      delimiter,
      Array.from({ length: text.length }, (_, i) => i),
    ),
  ];
  for (let i = 0; i <= text.length; i++) results.push(records(text, delimiter, [i]));
  return results;
}

describe('CsvRecords', () => {
  it.each([
    [
      'a;b;c\nd;e;f\n',
      [
        ['a', 'b', 'c'],
        ['d', 'e', 'f'],
      ],
    ],
    [
      'a;b\r\nc;d',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['a\rb\rc', [['a'], ['b'], ['c']]],
    ['a\r\nb\nc\n', [['a'], ['b'], ['c']]],
    [
      'a;\n\n\r\n;\nb;;\n',
      [
        ['a', ''],
        ['', ''],
        ['b', '', ''],
      ],
    ],
    ['"a;b";"c\r\nd";"e""f"\n', [['a;b', 'c\r\nd', 'e"f']]],
    ['"";x\n', [['', 'x']]],
    ['"a""b";c\n', [['a"b', 'c']]],
    ['a;b"c\n', [['a', 'b"c']]],
    [' "a";b\n', [[' "a"', 'b']]],
    [
      '"ab"c;d\nx;y\n',
      [
        ['"ab"c', 'd'],
        ['x', 'y'],
      ],
    ],
    ['x;"a"b"c";d\n', [['x', '"a"b"c"', 'd']]],
    ['a;"b"', [['a', 'b']]],
    ['a;"b";', [['a', 'b', '']]],
    ['a;b\n"c;d\ne', [['a', 'b'], ['c;d\ne']]], // unclosed quote: read to the end (csv-parse failed)
    [
      'email;nome\nJoão;São Paulo\n',
      [
        ['email', 'nome'],
        ['João', 'São Paulo'],
      ],
    ],
  ])('reads %j the same however it is cut', (text, expected) => {
    for (const result of allSplits(text)) expect(result).toEqual(expected);
  });

  it('reads tab- and comma-delimited text', () => {
    expect(records('a\tb,c\n', '\t')).toEqual([['a', 'b,c']]);
    expect(records('a\tb,c\n', ',')).toEqual([['a\tb', 'c']]);
  });

  it('agrees with csv-parse on well-formed random files, cut at random places', () => {
    let seed = 42;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pieces = ['a', 'b', 'ção', ' ', ';', ',', '"', '\n', '\r\n', '@', 'x.com'];
    for (let round = 0; round < 300; round++) {
      const eol = random() < 0.5 ? '\n' : '\r\n';
      const lines: string[] = [];
      for (let r = 0, rows = 1 + Math.floor(random() * 6); r < rows; r++) {
        const cells: string[] = [];
        for (let c = 0, cols = 1 + Math.floor(random() * 4); c < cols; c++) {
          let cell = '';
          for (let k = Math.floor(random() * 5); k > 0; k--) cell += pieces[Math.floor(random() * pieces.length)];
          const quote = /[;"\r\n]/.test(cell) || random() < 0.2;
          cells.push(quote ? `"${cell.replace(/"/g, '""')}"` : cell);
        }
        lines.push(cells.join(';'));
      }
      const text = lines.join(eol) + (random() < 0.7 ? eol : '');
      const expected = parse(text, {
        delimiter: ';',
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        record_delimiter: eol,
      }) as string[][];
      const cuts = Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * text.length));
      expect(records(text, ';', cuts), JSON.stringify(text)).toEqual(expected);
    }
  });

  it('throws on a record longer than the limit (an unclosed quote), keeping memory bounded', () => {
    const parser = new CsvRecords(';', 1000);
    parser.push('a;b\n"');
    expect(() => {
      for (let i = 0; i < 20; i++) parser.push('x'.repeat(100));
    }).toThrow(/longer than 1000/);
  });
});

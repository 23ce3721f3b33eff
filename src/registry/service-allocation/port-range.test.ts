import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePortRange, formatPortRange, portRangeContains } from './port-range.ts';

const problem = (text: string) => { try { parsePortRange(text); } catch (err) { return (err as Error).message; } return undefined; };

test('base-max, base+offset and a single port', () => {
  assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768 });
  assert.deepEqual(parsePortRange(' 20000+99 '), { base: 20000, size: 100 });
  assert.deepEqual(parsePortRange('8080'), { base: 8080, size: 1 });
  assert.equal(formatPortRange(parsePortRange('20000+99')), '20000-20099');
  const r = parsePortRange('30000-32767');
  assert.deepEqual([29999, 30000, 32767, 32768].map((p) => portRangeContains(r, p)), [false, true, true, false]);
});

test("errors in net.PortRange's words", () => {
  assert.equal(problem('a-b'), 'strconv.Atoi: parsing "a": invalid syntax');
  // strconv's NumError quotes with strconv.Quote: a control character as \a, not as JSON's \u0007.
  assert.equal(problem('\x07-30000'), 'strconv.Atoi: parsing "\\a": invalid syntax');
  assert.equal(problem('1-2+3'), 'unable to parse port range: 1-2+3');
  assert.equal(problem('30000-70000'), 'the port range cannot be greater than 65535: 30000-70000');
  assert.equal(problem('32767-30000'), 'end port cannot be less than start port: 32767-30000');
  assert.equal(problem(''), 'the port range must not be empty');
});

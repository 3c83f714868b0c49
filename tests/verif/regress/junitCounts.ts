import { execFileSync } from 'node:child_process';

/** Parses XML with Python's ElementTree (a strict parser): per testsuite [name, tests, failures, testcases, failure elements]. */
export function junitCounts(xml: string): [string, number, number, number, number][] {
  const script = `import sys, json, xml.etree.ElementTree as E
root = E.fromstring(sys.stdin.read())
print(json.dumps([[s.get('name'), int(s.get('tests')), int(s.get('failures')), len(s.findall('testcase')), len(s.findall('testcase/failure'))] for s in root.findall('testsuite')]))`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: xml, encoding: 'utf8' })) as [
    string,
    number,
    number,
    number,
    number,
  ][];
}

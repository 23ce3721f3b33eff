// What `/version` answers: the Kubernetes release whose API Capstan serves.
export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-capstan',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'node',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

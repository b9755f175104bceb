import { lintDockerfile } from './dockerfile-lint';

const good = `
# syntax=docker/dockerfile:1
ARG NODE_IMAGE=node:22.21.1-bookworm-slim
FROM \${NODE_IMAGE} AS builder
RUN npm ci && \\
    npx nx build gateway
FROM node:22.21.1-bookworm-slim AS runtime
COPY --from=builder /repo/dist/apps/gateway ./
USER 10001:10001
CMD ["node", "main.js"]
`;

describe('lintDockerfile', () => {
  it('should accept pinned images, a non-root USER and an exec-form CMD', () => {
    expect(lintDockerfile(good)).toEqual([]);
  });

  it('should flag untagged and latest base images', () => {
    expect(lintDockerfile(good.replace('FROM node:22.21.1-bookworm-slim AS runtime', 'FROM node AS runtime'))).toEqual(['FROM node: no tag (implies latest)']);
    expect(lintDockerfile(good.replace('ARG NODE_IMAGE=node:22.21.1-bookworm-slim', 'ARG NODE_IMAGE=node:latest'))).toEqual(['FROM node:latest: uses latest']);
  });

  it('should accept a FROM that names an earlier stage', () => {
    expect(lintDockerfile(`${good}\nFROM builder AS again\nUSER 10001\nCMD ["node","x.js"]`)).toEqual([]);
  });

  it('should require a non-root USER in the final stage', () => {
    expect(lintDockerfile(good.replace('USER 10001:10001\n', ''))).toEqual(['final stage has no USER (it would run as root)']);
    expect(lintDockerfile(good.replace('USER 10001:10001', 'USER root'))).toEqual(['final stage runs as root']);
    // A USER in the builder stage does not carry over to the final stage.
    expect(lintDockerfile(good.replace('RUN npm ci', 'USER 10001\nRUN npm ci').replace('USER 10001:10001\n', ''))).toEqual([
      'final stage has no USER (it would run as root)',
    ]);
  });

  it('should require an exec-form CMD', () => {
    expect(lintDockerfile(good.replace('CMD ["node", "main.js"]', 'CMD node main.js'))).toEqual([
      'CMD must be exec form (a JSON array) so signals reach node',
    ]);
  });
});

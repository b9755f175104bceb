// Lints the repository's app Dockerfiles (Docker itself cannot run here).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lintDockerfile } from './dockerfile-lint';

const repoRoot = path.resolve(__dirname, '../../..');
const appsDir = path.join(repoRoot, 'apps');
const apps = fs.readdirSync(appsDir).filter((a) => fs.existsSync(path.join(appsDir, a, 'Dockerfile'))).sort();
const read = (app: string) => fs.readFileSync(path.join(appsDir, app, 'Dockerfile'), 'utf8');
// Nx projects with a Prisma schema (folders without project.json are scratch output, not services).
const prismaServices = fs
  .readdirSync(appsDir)
  .filter((a) => fs.existsSync(path.join(appsDir, a, 'project.json')) && fs.existsSync(path.join(appsDir, a, 'prisma', 'schema.prisma')));

describe('app Dockerfiles', () => {
  it('should exist for the gateway, identity and the all-in-one exchange', () => {
    expect(apps).toEqual(expect.arrayContaining(['exchange', 'gateway', 'identity']));
  });

  it('should have a .dockerignore that keeps node_modules and build output out of the context', () => {
    const ignore = fs.readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.git']));
  });

  describe.each(apps)('apps/%s/Dockerfile', (app) => {
    it('should pin base images, run as a non-root USER and start with an exec-form CMD', () => {
      expect(lintDockerfile(read(app))).toEqual([]);
    });

    it('should build its own app with Nx and ship only dist/apps/<app>', () => {
      const text = read(app);
      expect(text).toContain(`npx nx build ${app}`);
      expect(text).toContain(`COPY --from=builder /repo/dist/apps/${app}/ ./`);
      expect(text).toMatch(/--omit=dev/);
      expect(text).toMatch(/^USER 10001(:10001)?$/m);
    });
  });

  it.each(apps)('should start the file apps/%s builds (CMD main.js needs esbuild outExtension .js)', (app) => {
    const cmd = /^CMD \["node", "([^"]+)"\]$/m.exec(read(app))?.[1];
    expect(cmd).toBe('main.js');
    // Nx's esbuild executor names a CommonJS bundle main.cjs unless told otherwise.
    const project = JSON.parse(fs.readFileSync(path.join(appsDir, app, 'project.json'), 'utf8'));
    expect(project.targets.build.options.esbuildOptions?.outExtension).toEqual({ '.js': '.js' });
  });

  it.each(prismaServices)('should verify the migrations of %s are in its image', (svc) => {
    if (apps.includes(svc)) expect(read(svc)).toContain('test -d prisma/migrations');
    expect(read('exchange')).toContain(`test -d ${svc}/prisma/migrations`);
  });
});

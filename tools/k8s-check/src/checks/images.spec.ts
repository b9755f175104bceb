import { checkImages, parseImage } from './images';
import { containerOf, deployment } from '../testing/fixtures';

function withImage(image: string) {
  const d = deployment('gateway');
  containerOf(d).image = image;
  return [d];
}

describe('parseImage', () => {
  it('should tell a registry port from a tag', () => {
    expect(parseImage('registry:5000/gateway')).toEqual({ repository: 'registry:5000/gateway', digest: undefined });
    expect(parseImage('registry:5000/gateway:1.2.3')).toEqual({ repository: 'registry:5000/gateway', tag: '1.2.3', digest: undefined });
    expect(parseImage('nats@sha256:abc')).toEqual({ repository: 'nats', digest: 'sha256:abc' });
  });
});

describe('checkImages', () => {
  it('should require a tag or digest and refuse latest', () => {
    expect(checkImages(withImage('agent-exchange/gateway'), { pinned: false })).toEqual([
      'Deployment/gateway container server: image agent-exchange/gateway has no tag or digest',
    ]);
    expect(checkImages(withImage('agent-exchange/gateway:latest'), { pinned: false })).toEqual([
      'Deployment/gateway container server: image agent-exchange/gateway:latest uses latest',
    ]);
    expect(checkImages(withImage('agent-exchange/gateway:dev'), { pinned: false })).toEqual([]);
  });

  it('should require a version or digest when pinned', () => {
    expect(checkImages(withImage('agent-exchange/gateway:dev'), { pinned: true })).toEqual([
      'Deployment/gateway container server: image agent-exchange/gateway:dev is not pinned to a version or digest',
    ]);
    expect(checkImages(withImage('ghcr.io/agent-exchange/gateway:0.1.0'), { pinned: true })).toEqual([]);
    expect(checkImages(withImage('nats:2.11.9-alpine'), { pinned: true })).toEqual([]);
    expect(checkImages(withImage('ghcr.io/agent-exchange/gateway@sha256:0123'), { pinned: true })).toEqual([]);
  });
});

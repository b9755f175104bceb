import type { K8sObject } from '../manifest';
import { allContainers, workloads } from '../manifest';

export interface ImageRef {
  repository: string;
  tag?: string;
  digest?: string;
}

export function parseImage(image: string): ImageRef {
  const [nameAndTag, digest] = image.split('@');
  // A colon after the last slash is a tag; before it, a registry port.
  const slash = nameAndTag.lastIndexOf('/');
  const colon = nameAndTag.lastIndexOf(':');
  if (colon > slash) return { repository: nameAndTag.slice(0, colon), tag: nameAndTag.slice(colon + 1), digest };
  return { repository: nameAndTag, digest };
}

/**
 * Every container image names an explicit tag or digest and never `latest`. With `pinned`,
 * the tag must be a release version (x.y.z…) or the image a sha256 digest, so a render
 * always means the same bits.
 */
export function checkImages(objects: K8sObject[], opts: { pinned: boolean }): string[] {
  const problems: string[] = [];
  for (const w of workloads(objects)) {
    for (const c of allContainers(w.pod)) {
      const where = `${w.kind}/${w.name} container ${c.name}`;
      if (!c.image) {
        problems.push(`${where}: no image`);
        continue;
      }
      const ref = parseImage(c.image);
      if (!ref.tag && !ref.digest) problems.push(`${where}: image ${c.image} has no tag or digest`);
      else if (ref.tag === 'latest') problems.push(`${where}: image ${c.image} uses latest`);
      else if (opts.pinned && !ref.digest && !/^v?\d+\.\d+\.\d+/.test(ref.tag ?? '')) {
        problems.push(`${where}: image ${c.image} is not pinned to a version or digest`);
      }
    }
  }
  return problems;
}

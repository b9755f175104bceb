import type { K8sObject } from '../manifest';
import { deployment } from '../testing/fixtures';
import { checkAbsentApps } from './sandbox-only';

const configMap = (name: string, data: Record<string, string>): K8sObject => ({ kind: 'ConfigMap', metadata: { name }, data });

describe('checkAbsentApps', () => {
  it('should accept a render without the app', () => {
    expect(checkAbsentApps([deployment('commerce'), configMap('commerce-config-abc', { MERCHANT_DIRECTORY: '{}' })], ['sandbox-merchant'])).toEqual([]);
  });

  it('should flag the app and its generated objects by name', () => {
    const objects = [deployment('sandbox-merchant'), { kind: 'Secret', metadata: { name: 'sandbox-merchant-secrets-h4sh' } }];
    expect(checkAbsentApps(objects, ['sandbox-merchant'])).toEqual([
      'Deployment/sandbox-merchant: sandbox-only app sandbox-merchant must not be deployed here',
      'Secret/sandbox-merchant-secrets-h4sh: sandbox-only app sandbox-merchant must not be deployed here',
    ]);
  });

  it('should flag an object labelled app=<name> and pods labelled so under another name', () => {
    const svc: K8sObject = { kind: 'Service', metadata: { name: 'shop', labels: { app: 'sandbox-merchant' } } };
    expect(checkAbsentApps([svc, deployment('shop', { labels: { app: 'sandbox-merchant' } })], ['sandbox-merchant'])).toEqual([
      'Service/shop: sandbox-only app sandbox-merchant must not be deployed here',
      'Deployment/shop: pods labelled app=sandbox-merchant (sandbox-only)',
    ]);
  });

  it('should flag configuration that points at the app', () => {
    const cm = configMap('commerce-config-abc', { MERCHANT_DIRECTORY: '{"sandbox-merchant.local":"http://sandbox-merchant:8290"}' });
    expect(checkAbsentApps([cm], ['sandbox-merchant'])).toEqual(['ConfigMap/commerce-config-abc MERCHANT_DIRECTORY: refers to sandbox-only app sandbox-merchant']);
  });
});

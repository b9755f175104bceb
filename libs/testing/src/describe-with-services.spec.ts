import { describeWithNats } from './describe-with-services';

// The helpers decide at definition time; these blocks prove the current mode's behaviour.
const natsSet = Boolean(process.env['NATS_URL']);
let natsBodyRan = false;

describeWithNats('describeWithNats', (natsUrl) => {
  it('passes the configured URL', () => {
    natsBodyRan = true;
    expect(natsUrl).toBe(process.env['NATS_URL']);
  });
});

afterAll(() => {
  // Runs after the blocks above: with NATS_URL set the body must have run, without it never.
  expect(natsBodyRan).toBe(natsSet);
});

export { describeWithNats, describeWithRedis } from './describe-with-services';
export { createTestDatabase, dropDatabasesWithPrefix, testServerUrl, type TestDatabase } from './test-database';
export { testLogger } from './test-logger';
export { realServicesRequired } from './real-services';
export { describeWithExecutable, findExecutable } from './describe-with-executable';
export { fakePubkey, startFakeIdentity, type FakeAgent, type FakeIdentity } from './fake-identity';
export { spawnServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './service-process';
export { CallLog, protoService, startProtoFake, type ProtoFake, type ProtoFakeOptions, type ProtoFakeOverrides, type ProtoFakeService, type RecordedCall } from './proto-fake';
export { crowdedArchive, gzipOf, tarHeader, zeroGzip, zeroPayloadArchive } from './archive-bombs';

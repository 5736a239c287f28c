import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('configuration was accepted');
};

describe('loadConfig', () => {
  it('gives the spec defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      oidcIssuer: 'http://localhost:3000',
      dataDir: './.data',
      databaseUrl: undefined,
      redisUrl: undefined,
      accessTokenTtlSeconds: 900,
      flags: {
        publicSignupEnabled: false,
        passwordResetEnabled: true,
        onboardBootstrapEnabled: false,
        agentApprovalsEnabled: false,
        paymentsStepupEnabled: false,
        autonomyExecutionEnabled: false,
        mcpGatewayEnabled: false,
      },
    });
    expect(config.mfaEncryptionKey).toBeUndefined();
  });

  it('derives the issuer from BASE_URL and reads switches', () => {
    const config = loadConfig({ BASE_URL: 'https://id.example.com/', PUBLIC_SIGNUP_ENABLED: 'true', PORT: '8080' });
    expect(config.baseUrl).toBe('https://id.example.com');
    expect(config.oidcIssuer).toBe('https://id.example.com');
    expect(config.flags.publicSignupEnabled).toBe(true);
    expect(config.port).toBe(8080);
  });

  it('accepts a 32-byte MFA_ENCRYPTION_KEY as hex or base64', () => {
    expect(loadConfig({ MFA_ENCRYPTION_KEY: 'ab'.repeat(32) }).mfaEncryptionKey).toHaveLength(32);
    expect(loadConfig({ MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).mfaEncryptionKey).toHaveLength(
      32,
    );
  });

  it('stops the start with one line naming the variable', () => {
    expect(refused({ MFA_ENCRYPTION_KEY: 'too-short' })).toMatch(/^MFA_ENCRYPTION_KEY: /);
    expect(refused({ MFA_ENCRYPTION_KEY: 'ab'.repeat(31) })).toMatch(/^MFA_ENCRYPTION_KEY: /);
    expect(refused({ DATABASE_URL: 'mysql://localhost/db' })).toMatch(/^DATABASE_URL: /);
    expect(refused({ DATABASE_URL: 'not a url' })).toMatch(/^DATABASE_URL: /);
    expect(refused({ PORT: 'eighty' })).toMatch(/^PORT: /);
    expect(refused({ PUBLIC_SIGNUP_ENABLED: 'maybe' })).toMatch(/^PUBLIC_SIGNUP_ENABLED: /);
    expect(refused({ SVC_ENV: 'staging' })).toMatch(/^SVC_ENV: /);
    expect(refused({ DNS_SERVERS: 'dns.example.com' })).toMatch(/^DNS_SERVERS: /);
    expect(refused({ SVC_ENV: 'production' })).toMatch(/^SECRET_KEY: /);
    for (const message of [refused({ MFA_ENCRYPTION_KEY: 'x' }), refused({ DATABASE_URL: 'nope' })]) {
      expect(message).not.toContain('\n');
    }
  });

  it('honours EGRESS_TEST_* only when SVC_ENV=test', () => {
    expect(refused({ EGRESS_TEST_ROUTES: 'hooks.example.com=127.0.0.1:9000' })).toMatch(/^EGRESS_TEST_ROUTES: /);
    expect(refused({ SVC_ENV: 'production', SECRET_KEY: 'ab'.repeat(32), EGRESS_TEST_CA_FILE: '/tmp/ca.pem' })).toMatch(
      /^EGRESS_TEST_CA_FILE: /,
    );
    expect(refused({ SVC_ENV: 'test', EGRESS_TEST_ROUTES: 'hooks.example.com=10.0.0.5:9000' })).toMatch(/loopback/);
    const config = loadConfig({ SVC_ENV: 'test', EGRESS_TEST_ROUTES: 'Hooks.Example.com=127.0.0.1:9000' });
    expect(config.egressTest.routes.get('hooks.example.com')).toEqual({ host: '127.0.0.1', port: 9000 });
  });

  it('takes the first-admin bootstrap variables all three or none', () => {
    expect(loadConfig({}).bootstrap).toBeUndefined();
    expect(refused({ SVC_BOOTSTRAP_EMAIL: 'ops@example.com' })).toMatch(
      /^SVC_BOOTSTRAP_EMAIL, .*: set all three, or none$/,
    );
    const all = { SVC_BOOTSTRAP_PASSWORD_FILE: '/run/secrets/admin', SVC_BOOTSTRAP_ORGANIZATION: 'Platform Ops' };
    expect(refused({ ...all, SVC_BOOTSTRAP_EMAIL: 'nobody' })).toMatch(/^SVC_BOOTSTRAP_EMAIL: /);
    expect(loadConfig({ ...all, SVC_BOOTSTRAP_EMAIL: 'ops@example.com' }).bootstrap).toEqual({
      email: 'ops@example.com',
      passwordFile: '/run/secrets/admin',
      organization: 'Platform Ops',
    });
  });

  it('trusts a hop count or a list of proxy addresses, and refuses TRUST_PROXY=true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
    ]);
    expect(refused({ TRUST_PROXY: 'true' })).toMatch(/^TRUST_PROXY: "true" would let clients choose their address/);
    expect(refused({ TRUST_PROXY: 'yes' })).toMatch(/^TRUST_PROXY: /);
    expect(refused({ TRUST_PROXY: '10.0.0.0/33' })).toMatch(/^TRUST_PROXY: "10.0.0.0\/33" is not/);
    expect(refused({ TRUST_PROXY: 'proxy.internal' })).toMatch(/^TRUST_PROXY: /);
    expect(refused({ TRUST_PROXY: '11' })).toMatch(/^TRUST_PROXY: /);
  });
});

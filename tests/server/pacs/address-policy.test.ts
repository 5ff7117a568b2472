/**
 * The PACS address policy over every way of writing an address (issue 24): the forms an attacker
 * used to reach 169.254.169.254 and the server's own listeners, and the private addresses a
 * hospital's PACS lives at, which stay allowed.
 */
import { describe, expect, it } from 'vitest';
import { addressRefusal, assertAllowedPacsUrl, ForbiddenAddressError } from '../../../src/server/pacs/address-policy.ts';

const strict = { allowLoopback: false };
const tests = { allowLoopback: true };

/** The host as a URL's parser leaves it (what the server connects to), and whether the policy refuses it. */
const hostOf = (url: string) => new URL(url).hostname;

describe('the PACS address policy', () => {
  it.each([
    // Link-local and the cloud metadata services, in every form that carries 169.254.169.254.
    ['http://169.254.169.254/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[::169.254.169.254]/', 'IPv4-compatible'],
    ['http://[::ffff:0:a9fe:a9fe]/', 'IPv4-translated'],
    ['http://[64:ff9b::169.254.169.254]/', 'NAT64'],
    ['http://[64:ff9b:1::a9fe:a9fe]/', 'NAT64'],
    ['http://[64:ff9b:1:a9fe:a9:fe00::]/', 'NAT64 /48'],
    ['http://[2002:a9fe:a9fe::1]/', '6to4'],
    ['http://[2001:0:a9fe:a9fe::1]/', 'Teredo server'],
    ['http://[2001:0:4136:e378:8000:63bf:5601:5601]/', 'Teredo client'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[febf::1]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://100.100.100.200/', 'metadata'],
    ['http://[::ffff:100.100.100.200]/', 'metadata'],
    ['http://2852039166/', 'link-local'],
    ['http://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
    // The unspecified address reaches the server's own listeners.
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://[::ffff:0.0.0.0]/', 'unspecified'],
    ['http://[::ffff:0:0]/', 'unspecified'],
    ['http://[64:ff9b::]/', 'unspecified'],
    ['http://[2002::]/', 'unspecified'],
    // The server's loopback, by default.
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://127.255.255.254/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[::127.0.0.1]/', 'loopback'],
    ['http://[64:ff9b::7f00:1]/', 'loopback'],
    ['http://[2002:7f00:1::]/', 'loopback'],
    ['http://[2001:0:7f00:1::]/', 'loopback'],
    ['http://[fe80::5efe:7f00:1]/', 'loopback'],
    ['http://[2001:db8::200:5efe:7f00:1]/', 'loopback'],
    // Not a host of anyone: broadcast, multicast, reserved.
    ['http://255.255.255.255/', 'broadcast'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://[::ffff:240.0.0.1]/', 'reserved'],
  ])('refuses %s (%s)', (url, why) => {
    const refusal = addressRefusal(hostOf(url), strict);
    expect(refusal, url).not.toBeNull();
    const words: Record<string, RegExp> = {
      'link-local': /link-local/,
      metadata: /metadata/,
      unspecified: /unspecified/,
      loopback: /loopback/,
    };
    expect(refusal).toMatch(words[why] ?? new RegExp(why.split(' ')[0]!));
  });

  it.each([
    'http://10.1.2.3/',
    'http://172.16.0.10/',
    'http://192.168.1.20/',
    'http://100.64.0.5/',
    'http://8.8.8.8/',
    'http://[fd12:3456::10]/',
    'http://[fc00::1]/',
    'http://[2a00:1450:4001:80b::200e]/',
    'http://[::ffff:10.0.0.5]/',
    'http://[::ffff:192.168.1.20]/',
    'http://[64:ff9b::10.0.0.5]/',
    'http://[2002:c0a8:114::1]/',
  ])('allows %s (a PACS on the hospital network, or a public one)', (url) => {
    expect(addressRefusal(hostOf(url), strict)).toBeNull();
  });

  it.each(['http://127.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[64:ff9b::7f00:1]/'])(
    'allows the loopback %s only when the server is configured to (PACS_ALLOW_LOOPBACK)',
    (url) => {
      expect(addressRefusal(hostOf(url), strict)).toMatch(/loopback/);
      expect(addressRefusal(hostOf(url), tests)).toBeNull();
    },
  );

  it.each(['http://0.0.0.0/', 'http://[::ffff:0.0.0.0]/', 'http://[::]/', 'http://169.254.169.254/', 'http://[::ffff:a9fe:a9fe]/'])(
    'refuses %s even when loopback is allowed',
    (url) => {
      expect(addressRefusal(hostOf(url), tests)).not.toBeNull();
    },
  );

  it('refuses what is not an IP address (callers resolve names first) and addresses with a zone', () => {
    expect(addressRefusal('pacs.example.org', tests)).toBe('not an IP address');
    expect(addressRefusal('fe80::1%eth0', tests)).not.toBeNull();
  });

  it('checks a URL before it is saved: literal addresses, metadata names and names that resolve to a forbidden address', async () => {
    for (const url of ['http://[::ffff:a9fe:a9fe]/dicom-web', 'http://metadata.google.internal/dicom-web', 'http://localhost:8042/dicom-web']) {
      await expect(assertAllowedPacsUrl(url, strict), url).rejects.toThrow(ForbiddenAddressError);
    }
    await expect(assertAllowedPacsUrl('http://localhost:8042/dicom-web', tests)).resolves.toBeUndefined();
    await expect(assertAllowedPacsUrl('http://10.0.0.5:8042/dicom-web', strict)).resolves.toBeUndefined();
  });
});

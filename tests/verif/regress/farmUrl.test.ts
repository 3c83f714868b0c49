import { describe, expect, it } from 'vitest';
import { UserError } from '../../../common/errors.ts';
import { parseFarmUrl, redisOptions } from '../../../verif/regress/farm/redisUrl.ts';

describe('farm Redis URLs', () => {
  it('pass a password, an ACL user, a database and TLS options through, and mask the password', () => {
    const acl = parseFarmUrl('redis://farm:s%40cret@redis.example:6380/2');
    expect(redisOptions(acl)).toEqual({
      host: 'redis.example',
      port: 6380,
      db: 2,
      username: 'farm',
      password: 's@cret',
    });
    expect(acl.shown).toBe('redis://farm:***@redis.example:6380/2');
    expect(redisOptions(parseFarmUrl('redis://:pw@127.0.0.1'))).toEqual({
      host: '127.0.0.1',
      port: 6379,
      password: 'pw',
    });
    const tls = parseFarmUrl('rediss://h:6390?servername=farm&rejectUnauthorized=false');
    expect(tls.tls).toEqual({ servername: 'farm', rejectUnauthorized: false });
    expect(parseFarmUrl('rediss://h').tls).toEqual({});
  });

  it('refuses malformed URLs in one line', () => {
    for (const [url, message] of [
      ['localhost:6379', /scheme must be redis:\/\/ or rediss:\/\//],
      ['http://h:1', /scheme must be/],
      ['redis://h/x', /database 'x' is not a number/],
      ['redis://h?ca=/x', /TLS parameters need rediss:\/\//],
      ['rediss://h?ca=/no/such/file.pem', /cannot read ca file \/no\/such\/file.pem/],
    ] as const) {
      expect(() => parseFarmUrl(url)).toThrow(UserError);
      expect(() => parseFarmUrl(url)).toThrow(message);
    }
  });
});

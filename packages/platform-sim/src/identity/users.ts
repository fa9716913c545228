/** A person or bot the simulator knows by login; commits map to it by email. */
export interface SimUser {
  login: string;
  id: number;
  name: string;
  email: string;
  type: 'User' | 'Bot';
}

export const EMAIL_DOMAIN = 'refplat.org';

/** Logins that author commits without holding a token (CI writes dev digests). */
const BUILT_IN_LOGINS = ['ci-bot'];

/**
 * Everyone who can appear as an author: the logins of the configured tokens
 * plus built-in bots. Ids are stable (position-based) so responses are too.
 */
export class UserDirectory {
  private readonly byLogin = new Map<string, SimUser>();

  constructor(tokenLogins: string[]) {
    const logins = [...new Set([...tokenLogins, ...BUILT_IN_LOGINS])];
    logins.forEach((login, index) => {
      const isBot = login.endsWith('-bot');
      this.byLogin.set(login, {
        login,
        id: 1000 + index,
        name: login,
        email: `${login}@${EMAIL_DOMAIN}`,
        type: isBot ? 'Bot' : 'User',
      });
    });
  }

  get(login: string): SimUser | undefined {
    return this.byLogin.get(login);
  }

  /** The user a commit email belongs to (own address or GitHub's noreply form). */
  byEmail(email: string): SimUser | undefined {
    const lower = email.toLowerCase();
    for (const user of this.byLogin.values()) {
      if (
        user.email === lower ||
        lower.endsWith(`+${user.login}@users.noreply.github.com`)
      )
        return user;
    }
    return undefined;
  }

  /** A user for any login, inventing one for logins that have no token (e.g. commit authors). */
  getOrCreate(login: string): SimUser {
    const existing = this.byLogin.get(login);
    if (existing) return existing;
    const user: SimUser = {
      login,
      id: 1000 + this.byLogin.size,
      name: login,
      email: `${login}@${EMAIL_DOMAIN}`,
      type: login.endsWith('-bot') ? 'Bot' : 'User',
    };
    this.byLogin.set(login, user);
    return user;
  }
}

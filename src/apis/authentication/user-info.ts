// UserInfo as the authentication reviews carry it.
import { S } from '../meta/schema.ts';

export const GROUP = 'authentication.svc.io';

export const UserInfoSchema = S.object({
  username: S.string({ proto: 1, description: 'The name that uniquely identifies this user among all active users.' }),
  uid: S.string({ proto: 2, description: 'A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.' }),
  groups: S.list(S.string(), { proto: 3, listType: 'atomic', description: 'The names of groups this user is a part of.' }),
  extra: S.map(S.list(S.string()), { proto: 4, description: 'Any additional information provided by the authenticator.' }),
}, { ref: 'authentication.v1.UserInfo', description: 'UserInfo holds the information about the user needed to implement the user.Info interface.' });

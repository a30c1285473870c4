import { accountOperations } from './account.operations';
import { campaignsOperations } from './campaigns.operations';
import { contactsOperations } from './contacts.operations';
import { eventsOperations } from './events.operations';
import { filesOperations } from './files.operations';
import { listsOperations } from './lists.operations';
import { messagesOperations } from './messages.routes';
import type { OperationGroup } from './public-api.routes';
import { templatesOperations } from './templates.operations';

/** Every operation file of the public API v1, in the order of the documentation. Add a new file here. */
export const PUBLIC_API_GROUPS: OperationGroup[] = [
  messagesOperations,
  filesOperations,
  eventsOperations,
  contactsOperations,
  listsOperations,
  templatesOperations,
  campaignsOperations,
  accountOperations,
];

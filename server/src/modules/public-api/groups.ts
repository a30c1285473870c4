import { contactsOperations } from './contacts.operations';
import { messagesOperations } from './messages.routes';
import type { OperationGroup } from './public-api.routes';

/** Every operation file of the public API v1, in the order of the documentation. Add a new file here. */
export const PUBLIC_API_GROUPS: OperationGroup[] = [contactsOperations, messagesOperations];

import { ERROR_MESSAGES_PT_BR } from '@carteiro/shared';
import { addErrors } from './index';

// Side effect: the pt-BR error catalogue joins when a chunk that shows errors loads (not on the landing page,
// whose JS budget is 100 KB gzip).
addErrors('pt-BR', ERROR_MESSAGES_PT_BR);

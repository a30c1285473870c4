import './errors-pt-BR';
import { addMessages } from './index';
import { ptBRApp } from './pt-BR-app';

// Side effect: the app's pt-BR texts join the catalogue when a chunk that needs them loads.
addMessages('pt-BR', ptBRApp);

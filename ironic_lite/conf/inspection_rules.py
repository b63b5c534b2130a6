"""Options of ``[inspection_rules]`` (Ironic's names, defaults and
meanings): the rules of a file applied beside those of the database, and
which rules see the secrets of the inspection data."""

from oslo_config import cfg

opts = [
    cfg.StrOpt('built_in_rules', mutable=True,
               help='Path to YAML file of built-in inspection rules.'),
    cfg.StrOpt('mask_secrets', default='always',
               choices=['always', 'never', 'sensitive'],
               help='Whether to mask secrets in the node information '
                    'passed to the rules.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='inspection_rules')

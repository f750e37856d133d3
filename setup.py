"""Packaging for effattn; every setting is read from settings.ini (nbdev's single source of truth)."""
from configparser import ConfigParser
from pathlib import Path
import shutil
import setuptools
from setuptools.command.build_py import build_py


class build_py_with_sample(build_py):
    "Copy the embedded sample (data/sample, shared with the checkout) into the built package as effattn/sample."
    def run(self):
        super().run()
        if getattr(self, 'editable_mode', False): return  # an editable install reads data/sample in place
        src, dst = Path('data') / 'sample', Path(self.build_lib) / 'effattn' / 'sample'
        if not src.is_dir(): raise SystemExit(f"{src.resolve()} is missing: the wheel must ship the embedded sample.")
        shutil.copytree(src, dst, dirs_exist_ok=True)

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['Planning', 'Pre-Alpha', 'Alpha', 'Beta', 'Production/Stable', 'Mature', 'Inactive']
lic = licenses[cfg['license']]
reqs = cfg.get('requirements', '').split()
repro = cfg.get('repro_requirements', '').split()
dev = cfg.get('dev_requirements', '').split()
bench = cfg.get('bench_requirements', '').split()  # the peers' packages for `python -m effattn.bench.peers` (dev has them:
# eight small pure-Python wheels whose torch requirements, at most torch>=2.5, keep the installed torch; 41_peers' agreement tests run)
tb = cfg.get('tb_requirements', '').split()  # TensorBoard curves: fit(log_dir=...), campaign run --tensorboard
slurm = cfg.get('slurm_requirements', '').split()  # campaign run --executor submitit (Slurm; dev has it: small, pure Python)
ray = cfg.get('ray_requirements', '').split()  # campaign run --executor ray (its test skips without it)
docs = cfg.get('docs_requirements', '').split()  # the documentation site: python .ci/build_site.py

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    author=cfg['author'],
    author_email=cfg['author_email'],
    url=cfg['git_url'],
    license=lic[0],
    classifiers=[
        f"Development Status :: {int(cfg['status'])} - {statuses[int(cfg['status'])]}",
        f"Intended Audience :: {cfg['audience']}",
        f"License :: {lic[1]}",
        'Natural Language :: English',
        'Programming Language :: Python :: 3',
        'Topic :: Scientific/Engineering :: Artificial Intelligence',
    ],
    packages=setuptools.find_packages(include=['effattn', 'effattn.*']),
    cmdclass={'build_py': build_py_with_sample},  # ships data/sample inside the package (effattn/sample)
    install_requires=reqs,
    extras_require={'repro': repro, 'bench': bench, 'tb': tb, 'slurm': slurm, 'ray': ray, 'docs': docs,
                    'dev': repro + tb + dev + docs + bench},
    python_requires='>=' + cfg['min_python'],
    zip_safe=False,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"],
    },
    keywords=cfg['keywords'],
)

import type { CiTemplate } from './state';

/** A few `.gitlab-ci.yml` templates, written for the fake forge in the style of the real ones. */
export const CI_TEMPLATES: readonly CiTemplate[] = [
  {
    key: 'Bash',
    name: 'Bash',
    content: `# This file is a template, and might need editing before it works on your project.
# A pipeline that runs shell scripts in three stages.

image: busybox:latest

before_script:
  - echo "Before script section"
  - echo "For example you might run an update here or install a build dependency"

after_script:
  - echo "After script section"

stages:
  - build
  - test
  - deploy

build1:
  stage: build
  script:
    - echo "Do your build here"

test1:
  stage: test
  script:
    - echo "Do a test here"
    - echo "For example run a test suite"

deploy1:
  stage: deploy
  script:
    - echo "Do your deploy here"
  environment: production
`,
  },
  {
    key: 'Docker',
    name: 'Docker',
    content: `# This file is a template, and might need editing before it works on your project.
# Build a Docker image with Docker-in-Docker and push it to the project's container registry.

docker-build:
  image: docker:24
  stage: build
  services:
    - docker:24-dind
  before_script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY
  script:
    - |
      if [[ "$CI_COMMIT_BRANCH" == "$CI_DEFAULT_BRANCH" ]]; then
        tag=""
        echo "Running on default branch '$CI_DEFAULT_BRANCH': tag = 'latest'"
      else
        tag=":$CI_COMMIT_REF_SLUG"
        echo "Running on branch '$CI_COMMIT_BRANCH': tag = $tag"
      fi
    - docker build --pull -t "$CI_REGISTRY_IMAGE\${tag}" .
    - docker push "$CI_REGISTRY_IMAGE\${tag}"
  rules:
    - if: $CI_COMMIT_BRANCH
      exists:
        - Dockerfile
`,
  },
  {
    key: 'Go',
    name: 'Go',
    content: `# This file is a template, and might need editing before it works on your project.
image: golang:1.22

stages:
  - test
  - build
  - deploy

format:
  stage: test
  script:
    - go fmt $(go list ./... | grep -v /vendor/)
    - go vet $(go list ./... | grep -v /vendor/)
    - go test -race $(go list ./... | grep -v /vendor/)

compile:
  stage: build
  script:
    - mkdir -p mybinaries
    - go build -o mybinaries ./...
  artifacts:
    paths:
      - mybinaries

deploy:
  stage: deploy
  script: echo "Define your deployment script!"
  environment: production
`,
  },
  {
    key: 'Nodejs',
    name: 'Nodejs',
    content: `# This file is a template, and might need editing before it works on your project.
# Official framework image. Look for the different tagged releases at:
# https://hub.docker.com/r/library/node/tags/
image: node:20

# Cache modules in between jobs
cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .npm/

before_script:
  - npm ci --cache .npm --prefer-offline

stages:
  - build
  - test

build:
  stage: build
  script:
    - npm run build
  artifacts:
    paths:
      - dist/
    expire_in: 1 week

test:
  stage: test
  script:
    - npm test
  coverage: /All files[^|]*\\|[^|]*\\s+([\\d\\.]+)/
`,
  },
  {
    key: 'Python',
    name: 'Python',
    content: `# This file is a template, and might need editing before it works on your project.
# Official language image. Look for the different tagged releases at:
# https://hub.docker.com/r/library/python/tags/
image: python:3.12

# Change pip's cache directory to be inside the project directory since we can
# only cache local items.
variables:
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip

before_script:
  - python --version ; pip --version
  - pip install virtualenv
  - virtualenv venv
  - source venv/bin/activate

test:
  script:
    - pip install ruff tox
    - ruff check .
    - tox -e py312

run:
  script:
    - pip install .
  artifacts:
    paths:
      - build/*
`,
  },
];
